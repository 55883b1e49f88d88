import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from './test-support/build-stop-payload.ts';
import { CLAUDE_FIXTURE } from './test-support/delivery-fixtures.ts';
import { FIXTURES_DIR } from './test-support/recorded-payloads.ts';
import { parseHookStdout, runHookBundle } from './test-support/run-hook-bundle.ts';
import { trustProjectConfig } from './test-support/trust-project-config.ts';

// Issue 12: the repository's own git configuration (written by the agent during the turn) runs no
// program when the real hook bin reads git at the end of the turn.

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

describe('the real hook in a repository whose git config names programs', () => {
  it('fsmonitor hook, clean/process filter and gpg.program: none runs; the block is the same as without them', async () => {
    const w = (world = createDeliveryWorld(CLAUDE_FIXTURE));
    const scenario = w.scenario('actionable');
    const expected = await w.expected(scenario);
    expect(expected.message).toBeDefined();

    const script = (name: string): string => {
      const path = join(w.root, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\necho "$@" >> '${join(w.root, `marker-${name}`)}'\ncat\n`);
      chmodSync(path, 0o755);
      return path;
    };
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: w.repo, env: scenario.env, encoding: 'utf8' });
    // Every unchanged tracked file stat-dirty (an old mtime the index does not have): `git status`
    // must compare content. Files the turn changed keep their mtimes (attribution reads them).
    const changed = new Set(git('ls-files', '-z', '-m').split('\0'));
    const old = new Date(Date.now() - 2 * 86_400_000);
    const clean = git('ls-files', '-z').split('\0').filter((f) => f !== '' && !changed.has(f));
    expect(clean.length).toBeGreaterThan(0);
    for (const file of clean) utimesSync(join(w.repo, file), old, old);
    // Then the agent writes the repository's config.
    git('config', 'core.fsmonitor', script('fsmonitor'));
    git('config', 'filter.x.clean', script('clean'));
    git('config', 'filter.x.process', script('process'));
    git('config', 'log.showSignature', 'true');
    git('config', 'gpg.program', script('gpg'));
    mkdirSync(join(w.repo, '.git', 'info'), { recursive: true });
    writeFileSync(join(w.repo, '.git', 'info', 'attributes'), '* filter=x\n');

    const result = await runHookBundle({ args: ['claude'], stdin: JSON.stringify(buildStopPayload(scenario)), env: scenario.env, killAfterMs: 30_000 });
    expect(readdirSync(w.root).filter((f) => f.startsWith('marker-'))).toEqual([]);
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(parseHookStdout('claude', result.stdout)).toBe(expected.message);
  });
});

// Issue 23, class 1: direct execution's WIP commit and push through the real hook bin, in a
// repository whose .git/config and .git/hooks name programs (every one a script leaving a marker).
describe('the real hook\'s WIP commit and push in a repository whose git config names programs', () => {
  it('no hook, signing program, receive-pack or credential helper of the repository runs; the commit is made and pushed', async () => {
    const w = (world = createDeliveryWorld({ ...CLAUDE_FIXTURE, transcriptFile: join(FIXTURES_DIR, 'claude/2.1.330/context-levels', 'L2.jsonl') }));
    w.writeConfig({ ...w.actionableConfig, context: { enabled: true }, handoff: { enabled: true }, directExecution: { enabled: true, push: true } });
    const scenario = w.scenario('actionable');
    await trustProjectConfig(w.repo, scenario.env);
    const marker = (name: string, body: string): string => {
      const path = join(w.root, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\necho "$@" >> '${join(w.root, `marker-${name}`)}'\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    };
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: w.repo, env: scenario.env, encoding: 'utf8' });
    const bare = join(w.root, 'origin.git');
    git('init', '-q', '--bare', bare);
    git('remote', 'add', 'origin', bare);
    for (const hook of ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-push', 'reference-transaction', 'post-index-change']) {
      const path = join(w.repo, '.git', 'hooks', hook);
      writeFileSync(path, `#!/bin/sh\nexec '${marker(hook, 'exit 0')}' "$@"\n`);
      chmodSync(path, 0o755);
    }
    git('config', 'commit.gpgSign', 'true');
    git('config', 'gpg.program', marker('gpg', 'exit 1'));
    git('config', 'remote.origin.receivepack', marker('receivepack', 'exec git-receive-pack "$@"'));
    git('config', 'credential.helper', marker('credential', 'exit 0'));
    const before = git('rev-parse', 'HEAD').trim();

    const result = await runHookBundle({ args: ['claude'], stdin: JSON.stringify(buildStopPayload(scenario)), env: scenario.env, cwd: scenario.cwd, killAfterMs: 30_000 });
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(readdirSync(w.root).filter((f) => f.startsWith('marker-'))).toEqual([]);
    const head = git('rev-parse', 'HEAD').trim();
    expect(head).not.toBe(before);
    expect(git('cat-file', 'commit', 'HEAD')).not.toContain('gpgsig');
    expect(execFileSync('git', ['--git-dir', bare, 'rev-parse', 'refs/heads/main'], { env: scenario.env, encoding: 'utf8' }).trim()).toBe(head);
  });
});
