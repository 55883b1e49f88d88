import { createServer, type Server } from 'node:http';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, makeTempGitRepo, type TempGitRepo } from '@agent-checkpoint/core/test-support';
import { DEFAULT_DIRECT_EXECUTION_CONFIG, type ResolvedDirectExecutionConfig } from '../config/context-config.ts';
import { readContextLevel, type KnownContextReading } from '../context/read-context-level.ts';
import { fileCall, timelineOf } from '../handoff/test-timeline.ts';
import { executeCheckpoint, type ExecuteCheckpointResult } from './execute-checkpoint.ts';

/*
 * Issue 23, class 1: a repository runs code through git itself. The WIP commit and the push run in
 * a repository whose `.git/config` and `.git/hooks/` the agent could have written; each program
 * such a repository names is a script leaving a marker outside the repository. Nothing of the
 * repository's may run, the commit and push must still succeed, and the user's own settings (global
 * config) still apply.
 */

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

interface World {
  readonly r: TempGitRepo;
  /** Outside the repository: scripts, markers, remotes. */
  readonly outer: string;
  /** A script recording its run in `marker-<name>`, then running `body` (default: pass stdin through). */
  script(name: string, body?: string): string;
  markers(): string[];
  /** Add settings to the user's global config (the isolated GIT_CONFIG_GLOBAL of the test). */
  userConfig(text: string): void;
  /** A bare repository at `origin`. */
  bareOrigin(): string;
}

function world(): World {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  const outer = makeTempDir('ac-gitprofile-');
  cleanups.push(outer.remove);
  const markerDir = join(outer.dir, 'markers');
  mkdirSync(markerDir);
  return {
    r,
    outer: outer.dir,
    script(name, body = 'cat') {
      const path = join(outer.dir, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\necho "$@" >> '${join(markerDir, `marker-${name}`)}'\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    },
    markers: () => readdirSync(markerDir).sort(),
    userConfig(text) {
      appendFileSync(r.env['GIT_CONFIG_GLOBAL'] as string, text);
    },
    bareOrigin() {
      const bare = join(outer.dir, 'origin.git');
      r.git(['init', '-q', '--bare', bare]);
      r.git(['remote', 'add', 'origin', bare]);
      return bare;
    },
  };
}

const reading = readContextLevel({ contextTokens: 172_000, contextWindow: 200_000 }) as KnownContextReading;
const CONFIG: ResolvedDirectExecutionConfig = { ...DEFAULT_DIRECT_EXECUTION_CONFIG, enabled: true, timeoutMs: 20_000 };

function execute(w: World, config: Partial<ResolvedDirectExecutionConfig> = {}): Promise<ExecuteCheckpointResult> {
  w.r.write('README.md', `edit ${Math.random()}\n`);
  return executeCheckpoint({
    projectRoot: w.r.dir,
    agent: 'claude',
    handoff: { trigger: { kind: 'context', reading }, timeline: timelineOf([fileCall('e1', 'edit', ['README.md'])], { prompt: 'Build' }), failures: [] },
    config: { ...CONFIG, ...config },
    now: new Date('2026-01-07T11:45:00.000Z'),
    timeZone: 'UTC',
    env: w.r.env,
  });
}

function committed(w: World, result: ExecuteCheckpointResult): void {
  expect(result.status, JSON.stringify(result.log)).toBe('done');
  expect(result.commit?.sha).toBe(w.r.git(['rev-parse', 'HEAD']).trim());
}

/** Every hook a commit, a push and the index changes around them can reach. */
const HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-push', 'reference-transaction', 'post-index-change', 'pre-auto-gc', 'post-rewrite'];

function plantHooks(w: World, dir: string, prefix: string): void {
  mkdirSync(dir, { recursive: true });
  for (const hook of HOOKS) {
    const script = w.script(`${prefix}${hook}`, 'exit 0');
    writeFileSync(join(dir, hook), `#!/bin/sh\nexec '${script}' "$@"\n`);
    chmodSync(join(dir, hook), 0o755);
  }
}

describe('the WIP commit and push run nothing the repository names', { timeout: 60_000 }, () => {
  it('hooks: none of .git/hooks runs, nor a core.hooksPath the repository sets; --no-verify or not; the commit and push succeed', async () => {
    const w = world();
    const bare = w.bareOrigin();
    plantHooks(w, join(w.r.dir, '.git', 'hooks'), 'git-hooks-');
    // git runs hooks once per event; the auto gc the commit may start would run pre-auto-gc.
    w.r.git(['config', 'gc.auto', '1']);
    for (const noVerify of [false, true]) {
      const result = await execute(w, { push: true, noVerify });
      committed(w, result);
      expect(result.push?.status).toBe('pushed');
    }
    plantHooks(w, join(w.outer, 'hooks-path'), 'hooks-path-');
    w.r.git(['config', 'core.hooksPath', join(w.outer, 'hooks-path')]);
    const result = await execute(w, { push: true });
    committed(w, result);
    expect(w.r.git(['--git-dir', bare, 'rev-parse', 'refs/heads/main']).trim()).toBe(result.commit?.sha);
    expect(w.markers()).toEqual([]);
  });

  it('hooks the user names in the trusted config run, and only those', async () => {
    const w = world();
    w.bareOrigin();
    plantHooks(w, join(w.r.dir, '.git', 'hooks'), '');
    const result = await execute(w, { push: true, gitHooks: ['pre-commit', 'pre-push'] });
    committed(w, result);
    expect(result.push?.status).toBe('pushed');
    expect(w.markers()).toEqual(['marker-pre-commit', 'marker-pre-push']);
  });

  it('signing: no gpg, ssh or x509 signing program runs; the WIP commit is unsigned', async () => {
    const w = world();
    for (const [format, key] of [['openpgp', 'gpg.program'], ['ssh', 'gpg.ssh.program'], ['x509', 'gpg.x509.program']] as const) {
      w.r.git(['config', 'commit.gpgSign', 'true']);
      w.r.git(['config', 'gpg.format', format]);
      w.r.git(['config', 'user.signingKey', 'whatever']);
      w.r.git(['config', key, w.script(`sign-${format}`, 'exit 1')]);
      w.r.git(['config', 'gpg.openpgp.program', w.script('sign-openpgp-2', 'exit 1')]);
      const result = await execute(w);
      committed(w, result);
      expect(w.r.git(['cat-file', 'commit', 'HEAD'])).not.toContain('gpgsig');
    }
    expect(w.markers()).toEqual([]);
  });

  it('transports: ext:: and fd:: remotes (also through url.insteadOf) are refused, core.gitProxy does not run; the commit stands', async () => {
    const w = world();
    const ext = w.script('ext', 'exit 1');
    w.r.git(['remote', 'add', 'origin', `ext::${ext} %S`]);
    w.r.git(['remote', 'add', 'fd', 'fd::5']);
    w.r.git(['config', 'protocol.ext.allow', 'always']);
    w.r.git(['config', 'protocol.fd.allow', 'always']);
    w.r.git(['remote', 'add', 'rewritten', 'evil:x']);
    w.r.git(['config', `url.ext::${w.script('insteadof', 'exit 1')} %S .insteadOf`, 'evil:']);
    // git:// runs core.gitProxy (first match wins, so only the environment can override it).
    w.r.git(['remote', 'add', 'gitproto', 'git://127.0.0.1:9/repo.git']);
    w.r.git(['config', 'core.gitProxy', w.script('git-proxy', 'exit 1')]);
    for (const remote of ['origin', 'fd', 'rewritten', 'gitproto']) {
      const result = await execute(w, { push: true, remote });
      committed(w, result);
      expect(result.push?.status).toBe('failed');
    }
    expect(w.markers()).toEqual([]);
  });

  it('SSH: the repository\'s core.sshCommand and ssh.variant never run; the user\'s global core.sshCommand does', async () => {
    const w = world();
    w.r.git(['remote', 'add', 'origin', 'ssh://git@example.invalid/repo.git']);
    w.r.git(['config', 'core.sshCommand', w.script('repo-ssh', 'exit 1')]);
    w.r.git(['config', 'ssh.variant', 'simple']);
    w.userConfig(`[core]\n\tsshCommand = ${w.script('user-ssh', 'exit 1')}\n`);
    const result = await execute(w, { push: true });
    committed(w, result);
    expect(result.push?.status).toBe('failed');
    expect(w.markers()).toEqual(['marker-user-ssh']);
    // A server gets git's own receive-pack command (a hook-less `git -c … receive-pack` is for local URLs only).
    expect(readFileSync(join(w.outer, 'markers', 'marker-user-ssh'), 'utf8')).toContain("git-receive-pack '/repo.git'");
  });

  it('receive-pack: a repository-set receivepack/uploadpack is not run, nor the hooks of a local receiving repository; the push succeeds', async () => {
    const w = world();
    const bare = w.bareOrigin();
    w.r.git(['config', 'remote.origin.receivepack', w.script('receivepack', 'exec git-receive-pack "$@"')]);
    w.r.git(['config', 'remote.origin.uploadpack', w.script('uploadpack', 'exec git-upload-pack "$@"')]);
    for (const hook of ['pre-receive', 'update', 'post-receive', 'post-update', 'reference-transaction', 'push-to-checkout']) {
      const script = w.script(`remote-${hook}`, 'exit 0');
      writeFileSync(join(bare, 'hooks', hook), `#!/bin/sh\nexec '${script}' "$@"\n`);
      chmodSync(join(bare, 'hooks', hook), 0o755);
    }
    const result = await execute(w, { push: true });
    committed(w, result);
    expect(result.push?.status).toBe('pushed');
    expect(w.r.git(['--git-dir', bare, 'rev-parse', 'refs/heads/main']).trim()).toBe(result.commit?.sha);
    // The same push through a file:// URL.
    w.r.git(['remote', 'set-url', 'origin', `file://${bare}`]);
    const again = await execute(w, { push: true });
    expect(again.push?.status).toBe('pushed');
    expect(w.markers()).toEqual([]);
  });

  it('credentials: the repository\'s credential helpers (generic and per URL) and askpass never run; the user\'s global helper does', async () => {
    const w = world();
    const server = await listen(
      createServer((_req, res) => {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test"' });
        res.end();
      }),
    );
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    w.r.git(['remote', 'add', 'origin', `${url}/repo.git`]);
    w.r.git(['config', 'credential.helper', w.script('repo-helper', 'exit 0')]);
    w.r.git(['config', `credential.${url}.helper`, w.script('repo-url-helper', 'exit 0')]);
    w.r.git(['config', 'core.askPass', w.script('repo-askpass', 'exit 1')]);
    w.userConfig(`[credential]\n\thelper = ${w.script('user-helper', 'exit 0')}\n`);
    const result = await execute(w, { push: true });
    committed(w, result);
    expect(result.push?.status).toBe('failed');
    expect(w.markers().filter((m) => m.startsWith('marker-repo'))).toEqual([]);
    expect(w.markers()).toContain('marker-user-helper');
  });

  it('filters, fsmonitor, editor, pager: a driver the repository defines does not run (the file is committed as it is); nor its fsmonitor, editor or pager', async () => {
    const w = world();
    w.r.write('.gitattributes', '*.md filter=evil\n');
    w.r.git(['add', '.gitattributes']);
    w.r.commit('attributes');
    w.r.git(['config', 'filter.evil.clean', w.script('clean')]);
    w.r.git(['config', 'filter.evil.smudge', w.script('smudge')]);
    w.r.git(['config', 'filter.evil.process', w.script('process', 'exit 1')]);
    w.r.git(['config', 'filter.evil.required', 'true']);
    w.r.git(['config', 'core.fsmonitor', w.script('fsmonitor', 'exit 1')]);
    w.r.git(['config', 'core.editor', w.script('editor', 'exit 1')]);
    w.r.git(['config', 'sequence.editor', w.script('sequence-editor', 'exit 1')]);
    w.r.git(['config', 'core.pager', w.script('pager')]);
    w.r.git(['config', 'pager.commit', w.script('pager-commit')]);
    const result = await execute(w);
    committed(w, result);
    expect(w.r.git(['show', 'HEAD:CLAUDE.md'])).toBe(readFileSync(join(w.r.dir, 'CLAUDE.md'), 'utf8'));
    expect(w.markers()).toEqual([]);
  });
});

function listen(server: Server): Promise<Server> {
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
