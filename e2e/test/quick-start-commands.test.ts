import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeExample } from '../../fixtures/example/materialize-example.mjs';
import { HOOK_BUNDLE } from '../src/harness/agent-checkpoint-bins.ts';
import { docShellBlocks, markdownSection, type DocShellBlock } from '../src/harness/doc-shell-blocks.ts';
import { REPO_ROOT } from '../src/harness/packed-packages.ts';

// The quick start works as written (issue 15, point 6): every fenced shell command of
// docs/quick-start.md and of the README's "Try it" and "Use it" sections is run, in document order,
// as a reader on a fresh machine would run it — in a temp HOME, with the bundled example project
// as the working directory and `agent-checkpoint-hook` on the PATH as the built bin of this
// checkout. Blocks that cannot run offline from a clone (the agent CLIs, network installs, the
// unpublished npm packages) carry `<!-- quickstart: skip (reason) -->`; the plugin commands among them
// are run against the real pinned CLIs by plugin-install.test.ts.

const QUICK_START = path.join(REPO_ROOT, 'docs', 'quick-start.md');
const README = path.join(REPO_ROOT, 'README.md');

function documentedBlocks(): { doc: string; block: DocShellBlock }[] {
  const readme = readFileSync(README, 'utf8');
  return [
    ...docShellBlocks(readFileSync(QUICK_START, 'utf8')).map((block) => ({ doc: 'docs/quick-start.md', block })),
    ...docShellBlocks(`${markdownSection(readme, 'Try it (fresh machine, Node ≥ 20)')}\n${markdownSection(readme, 'Use it')}`).map((block) => ({
      doc: 'README.md',
      block,
    })),
  ];
}

describe('docShellBlocks', () => {
  it('refuses a skip without a reason, and an unknown directive', () => {
    expect(() => docShellBlocks('<!-- quickstart: skip -->\n```sh\nfalse\n```\n')).toThrow(/needs a reason/);
    expect(() => docShellBlocks('<!-- quickstart: skip () -->\n```sh\nfalse\n```\n')).toThrow(/needs a reason/);
    expect(() => docShellBlocks('<!-- quickstart: sikp (x) -->\n```sh\nfalse\n```\n')).toThrow(/unknown directive/);
  });

  it('reads commands in order, drops comments, applies a directive to the next fence only', () => {
    const blocks = docShellBlocks(
      ['<!-- quickstart: skip (needs the network) -->', '', '```sh', 'npm i -g x', '```', '```bash', '# a comment', 'a --b  # note', '', 'c \\', '  d', '```', '```jsonc', '{}', '```'].join(
        '\n',
      ),
    );
    expect(blocks).toEqual([
      { kind: 'skip', line: 3, reason: 'needs the network', commands: ['npm i -g x'] },
      { kind: 'run', line: 6, cwd: 'project', commands: ['a --b  # note', 'c    d'] },
    ]);
  });
});

describe('the quick start as written', () => {
  let root: string;
  let project: string;
  let env: Record<string, string>;

  beforeAll(() => {
    const example = materializeExample();
    root = example.root;
    project = example.repo;
    // The reader's project has no .agent-checkpoint.json yet: step 4 writes it with `init`.
    rmSync(path.join(project, '.agent-checkpoint.json'));
    const shims = path.join(root, 'shims');
    mkdirSync(shims);
    const shim = path.join(shims, 'agent-checkpoint-hook');
    writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(HOOK_BUNDLE)} "$@"\n`);
    chmodSync(shim, 0o755);
    const pnpm = spawnSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).stdout.trim();
    // Built from scratch: nothing of the invoking user's configuration, state or agents leaks in.
    env = {
      PATH: [shims, path.dirname(process.execPath), ...(pnpm === '' ? [] : [path.dirname(pnpm)]), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
      HOME: example.home,
      XDG_CONFIG_HOME: path.join(root, 'xdg-config'),
      XDG_CACHE_HOME: path.join(root, 'xdg-cache'),
      XDG_STATE_HOME: path.join(root, 'xdg-state'),
      XDG_DATA_HOME: path.join(root, 'xdg-data'),
      CLAUDE_CONFIG_DIR: path.join(example.home, '.claude'),
      CODEX_HOME: path.join(example.home, '.codex'),
      GEMINI_CLI_HOME: example.home,
      TMPDIR: root,
      LANG: 'C.UTF-8',
      NO_COLOR: '1',
      GIT_CONFIG_NOSYSTEM: '1',
    };
  });
  afterAll(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('marks every skipped block with its reason', () => {
    // docShellBlocks throws on a skip without a reason; this names what is skipped, and why.
    const skips = documentedBlocks().flatMap(({ doc, block }) => (block.kind === 'skip' ? [{ at: `${doc}:${block.line}`, reason: block.reason }] : []));
    expect(skips.length).toBeGreaterThan(0);
    expect(skips.filter((skip) => skip.reason.trim() === '')).toEqual([]);
  });

  it('runs every other documented command with exit 0', () => {
    const runs = documentedBlocks().filter((entry) => entry.block.kind === 'run');
    // The runnable part of the quick start: the hook's own commands and the bundled example.
    expect(runs.flatMap(({ block }) => block.commands).length).toBeGreaterThanOrEqual(12);
    for (const { doc, block } of runs) {
      for (const command of block.commands) {
        const cwd = block.kind === 'run' && block.cwd === 'checkout' ? REPO_ROOT : project;
        const result = spawnSync('/bin/sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 180_000 });
        const where = `${doc}:${block.line}: \`${command}\` (cwd ${cwd})`;
        expect(result.error, where).toBeUndefined();
        expect(result.status, `${where} exited ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0);
      }
    }
  }, 600_000);
});
