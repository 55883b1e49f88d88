import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigFile, ResolvedConfig } from '../config/config-schema.ts';
import { resolveConfig } from '../config/resolve-config.ts';
import { getCheckpoint } from '../get-checkpoint.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import type { TranscriptReader } from '../transcript/transcript-reader.ts';
import type { GitSnapshot } from './changed-file.ts';
import { filterDriversInConfigText, scanRepositoryFilterDrivers } from './find-filter-drivers.ts';
import { buildGitInvocation } from './git-safety.ts';
import { gitWriteProfile, isLocalUrl, NO_USER_GIT_SETTINGS, receivePackOption } from './git-write-profile.ts';
import { readGitSnapshot } from './read-git-snapshot.ts';
import { makeTempGitRepo, type TempGitRepo } from './temp-git-repo.ts';

/*
 * Issue 12: the repository's own git configuration (written by the agent during the turn, or by
 * whoever published the repository) must not run programs in the hook's git calls. Each program is a
 * real script that leaves a marker file when git runs it; the markers live outside the repository.
 */

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

interface World {
  readonly r: TempGitRepo;
  /** The temp dir holding the repository, the scripts and the markers. */
  readonly outer: string;
  /** A script that records its run in `marker-<name>` and passes stdin through (a valid filter). */
  script(name: string): string;
  /** The markers written so far. */
  markers(): string[];
}

function world(): World {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  const outer = dirname(r.dir);
  return {
    r,
    outer,
    script(name) {
      const path = join(outer, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\necho "$@" >> '${join(outer, `marker-${name}`)}'\ncat\n`);
      chmodSync(path, 0o755);
      return path;
    },
    markers: () => readdirSync(outer).filter((f) => f.startsWith('marker-')),
  };
}

function expectRepo(s: GitSnapshot): Extract<GitSnapshot, { kind: 'repo' }> {
  if (s.kind !== 'repo') throw new Error(`expected a repo snapshot, got ${JSON.stringify(s)}`);
  return s;
}

const snapshot = (w: World, extra: { sinceMs?: number; env?: Record<string, string | undefined> } = {}): Promise<GitSnapshot> =>
  readGitSnapshot(w.r.dir, { timeoutMs: 10_000, env: { ...w.r.env, ...extra.env }, ...(extra.sinceMs === undefined ? {} : { sinceMs: extra.sinceMs }) });

const paths = (s: GitSnapshot): string[] => expectRepo(s).files.map((f) => f.path).sort();

/** `server/app.ts` and `README.md` committed an hour ago; the turn then rewrites app.ts with the same size and touches README.md. */
function statDirtyFiles(w: World, extraCommitted: Record<string, string> = {}): void {
  w.r.write('server/app.ts', 'version 1\n');
  for (const [path, content] of Object.entries(extraCommitted)) w.r.write(path, content);
  w.r.git(['add', '-A']);
  w.r.commit('base', Math.floor(Date.now() / 1000) - 3600);
  const hourAgo = Date.now() - 3_600_000;
  w.r.touch('server/app.ts', hourAgo);
  w.r.touch('README.md', hourAgo);
  w.r.git(['update-index', '--refresh']);
  // Same sizes, new mtimes: git status must read both files (through the clean filter) to compare.
  w.r.write('server/app.ts', 'version 2\n');
  w.r.write('README.md', '# test\n');
}

/** The checkpoint of a turn that edited server/app.ts (fixed timeline), with a category for server/. */
async function checkpointOfEdit(w: World, calls: ToolCall[] = []) {
  const file: ConfigFile = {
    categories: [{ id: 'server', label: 'server code', include: ['server/**'], action: 'Restart the server: `make restart`', evidence: ['make restart'] }],
  };
  const config: ResolvedConfig = resolveConfig([{ config: file, source: { kind: 'project-file', name: 'test' } }]);
  const app = join(w.r.dir, 'server/app.ts');
  const at = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();
  const reader: TranscriptReader = {
    specificationVersion: 'transcript-reader-v1',
    agent: 'claude',
    readTurn: () =>
      Promise.resolve({
        agent: 'claude',
        hasData: true,
        startedAt: at(60_000),
        checkpointsDelivered: 0,
        truncated: false,
        diagnostics: [],
        calls: [{ id: 'c1', kind: 'edit', rawName: 'Edit', input: { file_path: app }, paths: [app], outcome: 'success', timestamp: at(30_000) }, ...calls],
      }),
    locateTranscript: () => Promise.resolve(undefined),
  };
  return getCheckpoint({ agent: 'claude', cwd: w.r.dir, env: w.r.env, config, sessionId: 'sess-1', transcript: { reader, path: '/t.jsonl' } });
}

describe('the repository\'s git configuration runs nothing in our git calls', () => {
  it('core.fsmonitor: the hook command is not run; the checkpoint is still right', async () => {
    const w = world();
    w.r.write('server/app.ts', 'changed\n');
    w.r.git(['config', 'core.fsmonitor', w.script('fsmonitor')]);
    const outcome = await checkpointOfEdit(w);
    expect(w.markers()).toEqual([]);
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.message).toContain('Restart the server: `make restart`');
    expect(outcome.git).toMatchObject({ kind: 'repo', files: [expect.objectContaining({ path: 'server/app.ts', status: 'untracked' })] });
  });

  it('a clean filter named by .gitattributes (`* filter=x`) is not run on stat-dirty files; content is still compared', async () => {
    const w = world();
    statDirtyFiles(w, { '.gitattributes': '* filter=x\n' });
    w.r.git(['config', 'filter.x.clean', w.script('clean')]);
    w.r.git(['config', 'filter.x.smudge', w.script('smudge')]);
    const outcome = await checkpointOfEdit(w);
    expect(w.markers()).toEqual([]);
    // app.ts differs byte for byte; README.md was only touched, so it is not listed.
    expect(outcome.git).toMatchObject({ kind: 'repo', files: [expect.objectContaining({ path: 'server/app.ts', status: 'modified' })] });
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
  });

  it('a process filter with required=true from .git/info/attributes, and driver names with dots and `=`', async () => {
    const w = world();
    statDirtyFiles(w, { 'docs/n.txt': 'same\n' });
    w.r.write('docs/n.txt', 'same\n'); // rewritten with the same bytes: stat-dirty, content equal
    mkdirSync(join(w.r.dir, '.git/info'), { recursive: true });
    writeFileSync(join(w.r.dir, '.git/info/attributes'), 'server/* filter=x\nREADME.md filter=a=b\ndocs/* filter=my.drv\n');
    w.r.git(['config', 'filter.x.process', w.script('process')]);
    w.r.git(['config', 'filter.x.required', 'true']);
    w.r.git(['config', 'filter.a=b.clean', w.script('equals')]);
    w.r.git(['config', 'filter.my.drv.clean', w.script('dotted')]);
    const s = await snapshot(w);
    expect(w.markers()).toEqual([]);
    expect(paths(s)).toEqual(['server/app.ts']);
  });

  it('a filter defined in a file the repository\'s config includes (read through `git config`)', async () => {
    const w = world();
    statDirtyFiles(w, { '.gitattributes': '* filter=inc\n' });
    const included = join(w.outer, 'included.cfg');
    writeFileSync(included, `[filter "inc"]\n\tclean = ${w.script('included')}\n`);
    w.r.git(['config', 'include.path', included]);
    const s = await snapshot(w);
    expect(w.markers()).toEqual([]);
    expect(paths(s)).toEqual(['server/app.ts']);
  });

  it('the user\'s own filter drivers (global config, like git-lfs) stay in force: files they normalise are not listed', async () => {
    const w = world();
    // The user's driver folds case; the attribute comes from the repository (as LFS's does).
    statDirtyFiles(w, { '.gitattributes': 'server/* filter=fold\n' });
    writeFileSync(w.r.env['GIT_CONFIG_GLOBAL'] ?? '', '[filter "fold"]\n\tclean = tr A-Z a-z\n');
    w.r.write('server/app.ts', 'VERSION 1\n'); // the same as committed, once cleaned
    const s = await snapshot(w);
    expect(paths(s)).toEqual([]);
  });

  it('a submodule\'s own filter driver is not run (its dirty work tree is not read)', async () => {
    const w = world();
    const sub = join(w.r.dir, 'sub');
    mkdirSync(sub);
    const inSub = (args: string[]): string => w.r.git(args, { cwd: sub });
    inSub(['init', '-q', '-b', 'main']);
    writeFileSync(join(sub, 's.txt'), 'one\n');
    writeFileSync(join(sub, '.gitattributes'), '* filter=y\n');
    inSub(['add', '-A']);
    inSub(['commit', '-q', '--no-verify', '-m', 'sub']);
    w.r.git(['add', 'sub']);
    w.r.commit('add sub', Math.floor(Date.now() / 1000) - 3600);
    inSub(['config', 'filter.y.clean', w.script('sub-clean')]);
    // Same size, new content: a `git status` inside the submodule would run its clean filter.
    writeFileSync(join(sub, 's.txt'), 'two\n');
    w.r.write('server/app.ts', 'new\n');
    const s = await snapshot(w);
    expect(w.markers()).toEqual([]);
    expect(paths(s)).toEqual(['server/app.ts']);
  });

  it('log.showSignature with gpg.program: a signed commit of the turn is listed, the program is not run', async () => {
    const w = world();
    w.r.write('server/app.ts', 'signed change\n');
    w.r.git(['add', '-A']);
    const tree = w.r.git(['write-tree']).trim();
    const parent = w.r.git(['rev-parse', 'HEAD']).trim();
    const now = Math.floor(Date.now() / 1000);
    const body =
      `tree ${tree}\nparent ${parent}\nauthor Test <t@example.invalid> ${now} +0000\ncommitter Test <t@example.invalid> ${now} +0000\n` +
      'gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n';
    const objectFile = join(w.outer, 'commit-object');
    writeFileSync(objectFile, body);
    const commit = w.r.git(['hash-object', '-t', 'commit', '-w', objectFile]).trim();
    w.r.git(['update-ref', 'HEAD', commit]);
    w.r.git(['config', 'log.showSignature', 'true']);
    w.r.git(['config', 'gpg.program', w.script('gpg')]);
    w.r.git(['config', 'gpg.format', 'openpgp']);
    // The check itself: plain `git log` would run it.
    w.r.git(['log', '-1', '--format=%H']);
    expect(w.markers()).toEqual(['marker-gpg']);
    rmSync(join(w.outer, 'marker-gpg'));

    const outcome = await checkpointOfEdit(w);
    expect(w.markers()).toEqual([]);
    expect(outcome.git).toMatchObject({ kind: 'repo', files: [expect.objectContaining({ path: 'server/app.ts', source: 'committed' })] });
  });

  it('a partial clone\'s lazy fetch (ext:: transport allowed by the repository) is not started', async () => {
    const w = world();
    w.r.write('a.txt', Array.from({ length: 200 }, (_, i) => `${i}\n`).join(''));
    w.r.git(['add', '-A']);
    w.r.commit('base', Math.floor(Date.now() / 1000) - 3600);
    w.r.git(['mv', 'a.txt', 'b.txt']);
    w.r.write('b.txt', Array.from({ length: 201 }, (_, i) => `${i}\n`).join(''));
    w.r.git(['add', '-A']);
    w.r.commit('rename during the turn');
    // Both blobs gone: rename detection in `git log -M` must fetch them from the promisor remote.
    for (const spec of ['HEAD:b.txt', 'HEAD~1:a.txt']) {
      const oid = w.r.git(['rev-parse', spec]).trim();
      rmSync(join(w.r.dir, '.git/objects', oid.slice(0, 2), oid.slice(2)));
    }
    const marker = join(w.outer, 'marker-fetch');
    w.r.git(['config', 'core.repositoryformatversion', '1']);
    w.r.git(['config', 'extensions.partialClone', 'origin']);
    w.r.git(['config', 'remote.origin.promisor', 'true']);
    w.r.git(['config', 'remote.origin.url', `ext::sh -c touch% ${marker}`]);
    w.r.git(['config', 'protocol.ext.allow', 'always']);
    const s = await snapshot(w, { sinceMs: Date.now() - 60_000 });
    expect(w.markers()).toEqual([]);
    expect(s.kind).toBe('repo');
  });

  it('GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE inherited from the agent\'s environment do not redirect the snapshot', async () => {
    const w = world();
    const other = makeTempGitRepo();
    cleanups.push(other.remove);
    other.write('elsewhere.txt', 'other repository\n');
    w.r.write('server/app.ts', 'here\n');
    const s = await snapshot(w, {
      env: { GIT_DIR: join(other.dir, '.git'), GIT_WORK_TREE: other.dir, GIT_INDEX_FILE: join(other.dir, '.git/index') },
    });
    expect(expectRepo(s).root).toBe(w.r.dir);
    expect(paths(s)).toEqual(['server/app.ts']);
  });
});

describe('scanRepositoryFilterDrivers', () => {
  it('a linked worktree: the main config (through commondir) and the worktree\'s config.worktree; a FIFO config is left to git', () => {
    const w = world();
    const linked = join(w.outer, 'linked');
    w.r.git(['worktree', 'add', '-q', linked]);
    w.r.git(['config', 'filter.main.clean', 'x']);
    const gitDir = w.r.git(['rev-parse', '--absolute-git-dir'], { cwd: linked }).trim();
    writeFileSync(join(gitDir, 'config.worktree'), '[filter "wt"]\n\tclean = y\n');
    mkdirSync(join(linked, 'deep', 'er'), { recursive: true });
    expect(scanRepositoryFilterDrivers(join(linked, 'deep', 'er'))).toEqual({ kind: 'drivers', names: ['main', 'wt'] });
    expect(scanRepositoryFilterDrivers(w.r.dir)).toEqual({ kind: 'drivers', names: ['main'] });
    rmSync(join(gitDir, 'config.worktree'));
    execFileSync('mkfifo', [join(gitDir, 'config.worktree')]);
    expect(scanRepositoryFilterDrivers(linked)).toMatchObject({ kind: 'ask-git' });
  });
});

describe('filterDriversInConfigText', () => {
  it('finds drivers in git\'s header syntaxes and stays conservative otherwise', () => {
    expect(filterDriversInConfigText('[core]\n\tbare = false\n')).toEqual([]);
    expect(filterDriversInConfigText('[filter "lfs"]\n\tclean = git-lfs clean -- %f\n')).toEqual(['lfs']);
    expect(filterDriversInConfigText('[core][FILTER "x"] clean = a\n')).toEqual(['x']);
    expect(filterDriversInConfigText('  [filter  "a\\"b\\\\c"]\n')).toEqual(['a"b\\c']);
    expect(filterDriversInConfigText('[Filter.LegacyName]\nclean = x\n')).toEqual(['legacyname']);
    expect(filterDriversInConfigText('[filter "filtered"]\n')).toEqual(['filtered']);
    // "filter" outside a header, an include, or a name that is not UTF-8: git has to read it.
    expect(filterDriversInConfigText('[alias]\n\tf = !git filter-repo\n')).toBeUndefined();
    expect(filterDriversInConfigText('; [filter "x"]\n')).toBeUndefined();
    expect(filterDriversInConfigText('[include]\n\tpath = other\n')).toBeUndefined();
    expect(filterDriversInConfigText('[includeIf "onbranch:main"]\n\tpath = other\n')).toBeUndefined();
    expect(filterDriversInConfigText('[filter "\xff"]\n')).toBeUndefined();
  });
});

describe('buildGitInvocation', () => {
  it('read calls: settings as -c, a key with `=` appended after the user\'s GIT_CONFIG_COUNT entries, redirecting variables removed', () => {
    const { args, env } = buildGitInvocation(['status'], { GIT_DIR: '/x', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'me', HOME: '/h' }, 'read', [
      ['filter.a=b.clean', ''],
      ['filter.c.clean', ''],
    ]);
    expect(args.slice(-1)).toEqual(['status']);
    expect(args).toContain('core.fsmonitor=');
    expect(args).toContain('log.showSignature=false');
    expect(args).toContain('protocol.ext.allow=never');
    expect(args).toContain('filter.c.clean=');
    expect(args.join(' ')).not.toContain('a=b');
    expect(env).toMatchObject({ GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_KEY_1: 'filter.a=b.clean', GIT_CONFIG_VALUE_1: '', HOME: '/h', GIT_NO_LAZY_FETCH: '1' });
    expect(env).not.toHaveProperty('GIT_DIR');
  });

  it('write calls (direct execution): the write profile pins hooks, signing, transports and helpers; the user\'s SSH command is kept', () => {
    const profile = gitWriteProfile({
      user: { ...NO_USER_GIT_SETTINGS, credentialHelpers: [['credential.helper', 'store']], repositoryFilterDrivers: ['evil'] },
      env: { GIT_SSH_COMMAND: 'ssh -i key', GIT_ALLOW_PROTOCOL: 'https:ext:fd:ssh' },
    });
    const { args, env } = buildGitInvocation(['push'], { GIT_SSH_COMMAND: 'ssh -i key', GIT_ALLOW_PROTOCOL: 'https:ext:fd:ssh' }, profile);
    expect(args.slice(0, 3)).toEqual(['--no-pager', '-c', 'core.fsmonitor=']);
    expect(args.slice(-1)).toEqual(['push']);
    for (const setting of ['core.hooksPath=/dev/null', 'commit.gpgSign=false', 'protocol.ext.allow=never', 'filter.evil.clean=']) expect(args).toContain(setting);
    // The helper list is emptied, then the user's added back.
    expect(args.indexOf('credential.helper=')).toBeLessThan(args.indexOf('credential.helper=store'));
    expect(env).toMatchObject({ GIT_SSH_COMMAND: 'ssh -i key', GIT_ALLOW_PROTOCOL: 'https:ssh', GIT_PROXY_COMMAND: '' });
    expect(env).not.toHaveProperty('GIT_NO_LAZY_FETCH');
  });

  it('receive-pack: the user\'s own, else git\'s default; without hooks on a local URL', () => {
    expect(receivePackOption(NO_USER_GIT_SETTINGS, 'origin', 'git@github.com:o/r.git')).toBe('--receive-pack=git-receive-pack');
    expect(receivePackOption(NO_USER_GIT_SETTINGS, 'origin', '/srv/r.git')).toBe("--receive-pack=git -c core.hooksPath=/dev/null -c core.fsmonitor= receive-pack");
    expect(receivePackOption(NO_USER_GIT_SETTINGS, 'origin', 'file:///srv/r.git')).toMatch(/core\.hooksPath/);
    expect(receivePackOption({ ...NO_USER_GIT_SETTINGS, remotePrograms: [['remote.Origin.receivepack', 'rp']] }, 'Origin', 'x:y')).toBe('--receive-pack=rp');
    expect(isLocalUrl('./a:b')).toBe(true);
    expect(isLocalUrl('host:path')).toBe(false);
    expect(isLocalUrl('ext::sh')).toBe(false);
  });
});
