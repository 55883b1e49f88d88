import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangedFile, GitSnapshot } from './changed-file.ts';
import { readGitSnapshot } from './read-git-snapshot.ts';
import { makeTempDir, makeTempGitRepo, type TempGitRepo } from './temp-git-repo.ts';
import { commitsAroundTurnStart } from '../test-support/commits-around-turn-start.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(options?: { commits?: boolean }): TempGitRepo {
  const r = makeTempGitRepo(options);
  cleanups.push(r.remove);
  return r;
}

function snapshot(r: { env: Readonly<Record<string, string | undefined>> }, cwd: string, extra = {}) {
  return readGitSnapshot(cwd, { timeoutMs: 10_000, env: r.env, ...extra });
}

function expectRepo(s: GitSnapshot): Extract<GitSnapshot, { kind: 'repo' }> {
  if (s.kind !== 'repo') throw new Error(`expected a repo snapshot, got ${JSON.stringify(s)}`);
  return s;
}

function byPath(files: readonly ChangedFile[]): Record<string, ChangedFile> {
  return Object.fromEntries(files.map((f) => [f.path, f]));
}

describe('readGitSnapshot: working tree states', () => {
  it('reports untracked, staged, unstaged, renamed and deleted files with HEAD and branch', async () => {
    const r = repo();
    r.write('keep.txt', 'one\n');
    r.write('gone.txt', 'bye\n');
    r.write('old-name.txt', 'rename me\n'.repeat(20));
    r.git(['add', '-A']);
    r.commit('base');
    r.write('keep.txt', 'two\n'); // unstaged modification
    r.write('staged.txt', 'new\n');
    r.git(['add', 'staged.txt']); // staged addition
    r.git(['rm', '-q', 'gone.txt']); // staged deletion
    r.git(['mv', 'old-name.txt', 'new-name.txt']); // staged rename
    r.write('src/deep/untracked.ts', 'export {};\n'); // untracked, in a nested directory

    const s = expectRepo(await snapshot(r, r.dir));
    expect(s.root).toBe(r.dir);
    expect(s.head).toBe(r.git(['rev-parse', 'HEAD']).trim());
    expect(s.branch).toBe('main');
    const files = byPath(s.files);
    expect(Object.keys(files).sort()).toEqual(
      ['gone.txt', 'keep.txt', 'new-name.txt', 'src/deep/untracked.ts', 'staged.txt'].sort(),
    );
    expect(files['keep.txt']).toMatchObject({ status: 'modified', source: 'worktree' });
    expect(files['staged.txt']).toMatchObject({ status: 'added', source: 'worktree' });
    expect(files['gone.txt']).toMatchObject({ status: 'deleted', source: 'worktree' });
    expect(files['gone.txt']?.mtimeMs).toBeUndefined();
    expect(files['new-name.txt']).toMatchObject({ status: 'renamed', fromPath: 'old-name.txt' });
    expect(files['src/deep/untracked.ts']).toMatchObject({ status: 'untracked', source: 'worktree' });
    // mtime comes from lstat of the real file.
    expect(files['keep.txt']?.mtimeMs).toBe(lstatSync(join(r.dir, 'keep.txt')).mtimeMs);
  });

  it('reports a clean repository as a repo with no files', async () => {
    const r = repo();
    const s = expectRepo(await snapshot(r, r.dir));
    expect(s.files).toEqual([]);
    expect(s.head).toMatch(/^[0-9a-f]{40,64}$/);
  });

  it('handles a repository without commits: no head, no branch, files added or untracked', async () => {
    const r = repo({ commits: false });
    r.write('a.txt');
    r.write('b.txt');
    r.git(['add', 'a.txt']);
    const s = expectRepo(await snapshot(r, r.dir, { sinceMs: Date.now() - 60_000 }));
    expect(s.head).toBeUndefined();
    expect(s.branch).toBeUndefined();
    expect(byPath(s.files)['a.txt']?.status).toBe('added');
    expect(byPath(s.files)['b.txt']?.status).toBe('untracked');
    // `git log` fails in an unborn repository; that is expected, not a diagnostic.
    expect(s.diagnostics).toBeUndefined();
  });

  it('reports no branch on a detached HEAD', async () => {
    const r = repo();
    const head = r.git(['rev-parse', 'HEAD']).trim();
    r.git(['checkout', '-q', '--detach', head]);
    r.write('x.txt');
    const s = expectRepo(await snapshot(r, r.dir));
    expect(s.head).toBe(head);
    expect(s.branch).toBeUndefined();
    expect(s.files.map((f) => f.path)).toEqual(['x.txt']);
  });

  it('reads a linked worktree as its own top level with its own changes', async () => {
    const r = repo();
    const wt = join(r.dir, '..', 'wt');
    r.git(['worktree', 'add', '-q', '-b', 'feature', wt]);
    r.write('main-only.txt');
    writeFileSync(join(wt, 'wt-only.txt'), 'x\n');
    mkdirSync(join(wt, 'pkg'));
    const w = expectRepo(await snapshot(r, join(wt, 'pkg')));
    expect(w.root).toBe(wt);
    expect(w.branch).toBe('feature');
    expect(w.files.map((f) => f.path)).toEqual(['wt-only.txt']);
    const m = expectRepo(await snapshot(r, r.dir));
    expect(m.files.map((f) => f.path)).toEqual(['main-only.txt']);
  });

  it('gives repo-relative paths and the top level when cwd is a subdirectory', async () => {
    const r = repo();
    r.write('packages/app/src/index.ts');
    r.write('top.txt');
    const s = expectRepo(await snapshot(r, join(r.dir, 'packages', 'app')));
    expect(s.root).toBe(r.dir);
    expect(s.files.map((f) => f.path).sort()).toEqual(['packages/app/src/index.ts', 'top.txt']);
    expect(s.files.every((f) => typeof f.mtimeMs === 'number')).toBe(true);
  });

  it('keeps odd file names intact: spaces, quotes, newlines, leading newline, non-UTF-8 bytes', async () => {
    const r = repo();
    const names = ['with space.txt', 'quote"d\'.txt', 'new\nline.txt', '\nleading.txt', 'tab\there.md', 'ünïcödé.txt'];
    for (const name of names) r.write(name);
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]); // "caf\xE9.txt"
    r.write(latin1, 'bytes\n');
    // A tracked file with an odd name, renamed: both sides of the rename must survive.
    r.write('a b "c".txt', 'rename\n'.repeat(20));
    r.git(['add', 'a b "c".txt']);
    r.commit('odd');
    r.git(['mv', 'a b "c".txt', 'd\ne f.txt']);

    const s = expectRepo(await snapshot(r, r.dir));
    const files = byPath(s.files);
    for (const name of names) {
      expect(files[name], name).toMatchObject({ status: 'untracked' });
      expect(files[name]?.mtimeMs, name).toBeTypeOf('number');
    }
    expect(files['d\ne f.txt']).toMatchObject({ status: 'renamed', fromPath: 'a b "c".txt' });
    // Invalid UTF-8 decodes with U+FFFD, like the agents' JSON transcripts show it, and is still stat'ed.
    const odd = files['caf\uFFFD.txt'];
    expect(odd).toMatchObject({ status: 'untracked' });
    expect(odd?.mtimeMs).toBe(lstatSync(Buffer.concat([Buffer.from(r.dir + '/'), latin1])).mtimeMs);
  });

  it('answers not-a-repo for a plain directory, a bare repository and the .git directory', async () => {
    const plain = makeTempDir();
    cleanups.push(plain.remove);
    expect(await snapshot(plain, plain.dir)).toEqual({ kind: 'not-a-repo' });

    const bare = join(plain.dir, 'bare.git');
    mkdirSync(bare);
    const r = repo();
    r.git(['init', '-q', '--bare', bare]);
    expect(await snapshot(plain, bare)).toEqual({ kind: 'not-a-repo' });
    expect(await snapshot(r, join(r.dir, '.git'))).toEqual({ kind: 'not-a-repo' });
  });

  it('never "self-heals" a repository configured as bare: not-a-repo, config untouched', async () => {
    const r = repo();
    r.git(['config', 'core.bare', 'true']);
    const before = readFileSync(join(r.dir, '.git', 'config'));
    expect(await snapshot(r, r.dir)).toEqual({ kind: 'not-a-repo' });
    expect(readFileSync(join(r.dir, '.git', 'config'))).toEqual(before);
  });

  it('works while another process holds index.lock, and writes nothing to .git', async () => {
    const r = repo();
    r.write('tracked.txt', 'v1\n');
    r.git(['add', 'tracked.txt']);
    r.commit('tracked');
    // Rewrite with the same size and a new mtime: a plain `git status` would refresh the index.
    r.write('tracked.txt', 'v2\n');
    r.touch('tracked.txt', Date.now() + 5_000);
    const gitDir = join(r.dir, '.git');
    writeFileSync(join(gitDir, 'index.lock'), 'held by someone else');
    const listing = (): string[] =>
      readdirSync(gitDir, { recursive: true, encoding: 'utf8' })
        .map((p) => `${p}:${statSync(join(gitDir, p)).mtimeMs}:${statSync(join(gitDir, p)).size}`)
        .sort();
    const before = listing();
    const indexBefore = readFileSync(join(gitDir, 'index'));

    const s = expectRepo(await snapshot(r, r.dir));
    expect(s.files.map((f) => f.path)).toEqual(['tracked.txt']);
    expect(readFileSync(join(gitDir, 'index.lock'), 'utf8')).toBe('held by someone else');
    expect(readFileSync(join(gitDir, 'index'))).toEqual(indexBefore);
    expect(listing()).toEqual(before);
  });

  it('does not refresh the index even when a plain `git status` would rewrite it', async () => {
    const r = repo();
    r.write('tracked.txt', 'same\n');
    r.git(['add', 'tracked.txt']);
    r.commit('tracked');
    r.git(['status', '--porcelain']); // settle the index
    // Same content, new mtime: the index's cached stat data is stale, so `git status` would rewrite it.
    r.touch('tracked.txt', Date.now() - 10_000);
    const index = join(r.dir, '.git', 'index');
    const before = { bytes: readFileSync(index), mtimeMs: statSync(index).mtimeMs };
    const s = expectRepo(await snapshot(r, r.dir));
    expect(s.files).toEqual([]);
    expect(readFileSync(index)).toEqual(before.bytes);
    expect(statSync(index).mtimeMs).toBe(before.mtimeMs);
    // Control: a plain status does rewrite it, so the assertion above can fail.
    r.git(['status', '--porcelain']);
    expect(readFileSync(index)).not.toEqual(before.bytes);
  });

  // Root ignores permission bits, so this cannot be exercised as root (CI containers often are).
  it.skipIf(process.getuid?.() === 0)('works in a read-only repository (nothing needs write access)', async () => {
    const r = repo();
    r.write('x.txt');
    chmodSync(join(r.dir, '.git'), 0o555);
    cleanups.push(() => chmodSync(join(r.dir, '.git'), 0o755));
    const s = expectRepo(await snapshot(r, r.dir));
    expect(s.files.map((f) => f.path)).toEqual(['x.txt']);
  });
});

describe('readGitSnapshot: files committed during the turn', () => {
  it('adds files of commits made since the turn started, with source "committed"', async () => {
    const r = repo();
    const nowSec = Math.floor(Date.now() / 1000);
    r.write('before.txt');
    r.git(['add', '-A']);
    r.commit('before the turn', nowSec - 600);
    const sinceMs = (nowSec - 60) * 1000;

    r.write('src/feature.ts', 'v1\n');
    r.write('both.txt', 'v1\n');
    r.git(['add', '-A']);
    r.commit('during 1', nowSec - 30);
    r.write('src/feature.ts', 'v2\n');
    r.git(['mv', 'before.txt', 'after.txt']);
    r.git(['add', '-A']);
    r.commit('during 2', nowSec - 10);
    r.write('both.txt', 'v2, uncommitted\n'); // committed during the turn, then changed again

    const s = expectRepo(await snapshot(r, r.dir, { sinceMs }));
    const files = byPath(s.files);
    expect(Object.keys(files).sort()).toEqual(['after.txt', 'both.txt', 'src/feature.ts']);
    // Added in the first commit, modified in the second: still "added" for this turn.
    expect(files['src/feature.ts']).toMatchObject({ source: 'committed', status: 'added' });
    expect(files['src/feature.ts']?.mtimeMs).toBeTypeOf('number');
    expect(files['after.txt']).toMatchObject({ source: 'committed', status: 'renamed', fromPath: 'before.txt' });
    // A worktree change wins over the committed entry of the same path.
    expect(files['both.txt']).toMatchObject({ source: 'worktree', status: 'modified' });
    expect(s.diagnostics).toBeUndefined();
    // Every file, worktree or committed, carries its own mtime (distinct times, so a mix-up shows).
    for (const [i, path] of ['after.txt', 'both.txt', 'src/feature.ts'].entries()) r.touch(path, (nowSec - 1000 * (i + 1)) * 1000);
    const again = expectRepo(await snapshot(r, r.dir, { sinceMs }));
    for (const f of again.files) expect(f.mtimeMs, f.path).toBe(lstatSync(join(r.dir, f.path)).mtimeMs);
  });

  it('ignores commits older than the turn, and accepts the turn start as a promise', async () => {
    const r = repo();
    const nowSec = Math.floor(Date.now() / 1000);
    r.write('old.txt');
    r.git(['add', '-A']);
    r.commit('old', nowSec - 600);
    r.write('new.txt');
    r.git(['add', '-A']);
    r.commit('new', nowSec - 5);
    const s = expectRepo(await snapshot(r, r.dir, { sinceMs: Promise.resolve((nowSec - 60) * 1000) }));
    expect(s.files).toEqual([expect.objectContaining({ path: 'new.txt', source: 'committed', status: 'added' })]);
    const none = expectRepo(await snapshot(r, r.dir, { sinceMs: Promise.resolve(undefined) }));
    expect(none.files).toEqual([]);
    const noSince = expectRepo(await snapshot(r, r.dir));
    expect(noSince.files).toEqual([]);
  });

  it('includes files of a merge made during the turn (diff against the first parent)', async () => {
    const r = repo();
    const nowSec = Math.floor(Date.now() / 1000);
    r.git(['checkout', '-q', '-b', 'topic']);
    r.write('topic.txt');
    r.git(['add', '-A']);
    r.commit('topic work', nowSec - 7200);
    r.git(['checkout', '-q', 'main']);
    r.git(['merge', '-q', '--no-ff', '-m', 'merge topic', 'topic'], {
      env: { GIT_COMMITTER_DATE: `@${nowSec - 5} +0000` },
    });
    const s = expectRepo(await snapshot(r, r.dir, { sinceMs: (nowSec - 60) * 1000 }));
    expect(s.files.map((f) => [f.path, f.source])).toEqual([['topic.txt', 'committed']]);
  });
});

describe('readGitSnapshot: commits in the second the turn started', () => {
  /** A git that records every argument list it is given, then runs the real git. */
  function recordingGit(r: TempGitRepo): { gitBinary: string; calls: () => string[] } {
    const log = join(r.dir, '..', 'git-calls.log');
    const gitBinary = join(r.dir, '..', 'recording-git');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(gitBinary, `#!/bin/sh\necho "$*" >> "${log}"\nexec "${realGit}" "$@"\n`, { mode: 0o755 });
    // Each call as its subcommand and arguments: the `-c key=value` settings runGit puts first are
    // repository-config-safety.test.ts's business.
    const withoutSettings = (line: string): string => line.replace(/^(?:-c \S*\s)+/, '');
    return { gitBinary, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map(withoutSettings) : []) };
  }

  it('real commits 200 ms before and 200 ms after the start in one second: only the later one is the turn\'s', async () => {
    const r = repo();
    const made = await commitsAroundTurnStart(r, {
      before: () => {
        r.write('package.json', '{"name":"loop"}\n');
        r.write('daemon/server.ts', 'export {};\n');
        r.git(['add', '-A']);
      },
      after: () => {
        r.write('src/fix.ts', 'export const fixed = true;\n');
        r.git(['add', '-A']);
      },
    });
    const git = recordingGit(r);
    const s = expectRepo(await snapshot(r, r.dir, { sinceMs: made.turnStartMs, gitBinary: git.gitBinary }));
    expect(s.files).toEqual([expect.objectContaining({ path: 'src/fix.ts', source: 'committed', status: 'added' })]);
    expect(s.files[0]?.uncertainCommit).toBeUndefined();
    expect(s.startSecondCommits).toEqual([
      { oid: made.afterOid, verdict: 'during-turn', evidence: 'loose-object' },
      { oid: made.beforeOid, verdict: 'before-turn', evidence: 'loose-object' },
    ]);
    // One extra git process for the object directory, and only because a commit lay in that second.
    expect(git.calls().filter((c) => c.includes('--git-path'))).toEqual(['rev-parse --git-path objects --git-path logs/HEAD']);
  });

  it('no commit in the start second: no extra git process, nothing else read', async () => {
    const r = repo();
    const nowSec = Math.floor(Date.now() / 1000);
    r.write('a.txt');
    r.git(['add', '-A']);
    r.commit('a second before the turn', nowSec - 61);
    r.write('b.txt');
    r.git(['add', '-A']);
    r.commit('during', nowSec - 30);
    const git = recordingGit(r);
    const s = expectRepo(await snapshot(r, r.dir, { sinceMs: (nowSec - 60) * 1000 + 999, gitBinary: git.gitBinary }));
    expect(s.files.map((f) => f.path)).toEqual(['b.txt']);
    expect(s.startSecondCommits).toBeUndefined();
    // status and log only: the top level of this plain layout is found without `rev-parse`.
    expect(git.calls().map((c) => c.split(' ').find((w) => !w.startsWith('-'))).sort()).toEqual(['log', 'status']);
  });

  it('packed objects: packed before the start → not listed; packed since, with a newer reflog → listed as uncertain', async () => {
    const r = repo();
    const second = Math.floor(Date.now() / 1000) - 100;
    const start = second * 1000 + 600;
    r.write('earlier.txt');
    r.git(['add', '-A']);
    r.commit('before the turn, same second', second);
    r.git(['gc', '-q']);
    const packDir = join(r.dir, '.git', 'objects', 'pack');
    const packs = readdirSync(packDir).filter((n) => n.endsWith('.pack'));
    expect(packs.length).toBe(1);
    const setTimes = (packMs: number, reflogMs: number): void => {
      for (const p of packs) utimesSync(join(packDir, p), new Date(packMs), new Date(packMs));
      utimesSync(join(r.dir, '.git', 'logs', 'HEAD'), new Date(reflogMs), new Date(reflogMs));
    };
    setTimes(start - 400, start + 300);
    const packedBefore = expectRepo(await snapshot(r, r.dir, { sinceMs: start }));
    expect(packedBefore.files).toEqual([]);
    expect(packedBefore.startSecondCommits).toEqual([expect.objectContaining({ verdict: 'before-turn', evidence: 'pack' })]);

    setTimes(start + 200, start + 300); // e.g. a detached auto-gc repacked it after the prompt
    const packedSince = expectRepo(await snapshot(r, r.dir, { sinceMs: start }));
    expect(packedSince.files).toEqual([expect.objectContaining({ path: 'earlier.txt', source: 'committed', uncertainCommit: true })]);
    expect(packedSince.startSecondCommits).toEqual([expect.objectContaining({ verdict: 'unknown', evidence: 'none' })]);
  });

  it('a path in both an uncertain and a proven commit of the turn is not uncertain', async () => {
    const r = repo();
    const second = Math.floor(Date.now() / 1000) - 100;
    const start = second * 1000 + 600;
    r.write('shared.txt', 'one\n');
    r.write('only-uncertain.txt');
    r.git(['add', '-A']);
    r.commit('start second', second);
    const oid = r.git(['rev-parse', 'HEAD']).trim();
    // Whole-second object time and a reflog written since: nothing can place it.
    utimesSync(join(r.dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2)), new Date(second * 1000), new Date(second * 1000));
    r.write('shared.txt', 'two\n');
    r.git(['add', '-A']);
    r.commit('a later second', second + 5);
    const s = expectRepo(await snapshot(r, r.dir, { sinceMs: start }));
    const files = byPath(s.files);
    expect(files['shared.txt']?.uncertainCommit).toBeUndefined();
    expect(files['only-uncertain.txt']?.uncertainCommit).toBe(true);
  });
});

describe('readGitSnapshot: failures', () => {
  it('kills a hanging git and its children at the time limit', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const script = join(d.dir, 'fake-git');
    const pids = join(d.dir, 'pids');
    writeFileSync(script, `#!/bin/sh\necho $$ >> "${pids}"\nsleep 300 &\necho $! >> "${pids}"\nwait\n`, { mode: 0o755 });

    const started = Date.now();
    const s = await readGitSnapshot(d.dir, { timeoutMs: 300, gitBinary: script, env: d.env });
    expect(s.kind).toBe('error');
    expect(s.kind === 'error' && s.message).toMatch(/timed out after 300 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);

    // Both scripts (status and rev-parse) and their `sleep` children must be gone.
    const written = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(written.length).toBeGreaterThanOrEqual(2);
    await waitFor(() => written.every((pid) => !isAlive(pid)), 5_000);
  });

  it('reports a missing git executable as an error', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const s = await readGitSnapshot(d.dir, { timeoutMs: 5_000, gitBinary: join(d.dir, 'no-such-git'), env: d.env });
    expect(s).toEqual({ kind: 'error', message: expect.stringMatching(/git executable not found/) });
  });

  it('reports a missing working directory as an error', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const s = await readGitSnapshot(join(d.dir, 'gone'), { timeoutMs: 5_000, env: d.env });
    expect(s).toEqual({ kind: 'error', message: expect.stringMatching(/working directory does not exist/) });
  });

  it('reports other git failures with git\'s first error line', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const script = join(d.dir, 'broken-git');
    writeFileSync(script, '#!/bin/sh\necho "fatal: something broke" >&2\nexit 128\n', { mode: 0o755 });
    const s = await readGitSnapshot(d.dir, { timeoutMs: 5_000, gitBinary: script, env: d.env });
    expect(s).toEqual({ kind: 'error', message: 'git status failed: fatal: something broke' });
  });

  it('stops when the caller aborts', async () => {
    const r = repo();
    const controller = new AbortController();
    controller.abort();
    const s = await readGitSnapshot(r.dir, { timeoutMs: 5_000, env: r.env, signal: controller.signal });
    expect(s).toEqual({ kind: 'error', message: expect.stringMatching(/aborted/) });
  });

  it('bounds the wait for a turn start that never arrives, keeping the uncommitted files', async () => {
    const r = repo();
    r.write('x.txt');
    const never = new Promise<number | undefined>(() => {});
    const s = expectRepo(await readGitSnapshot(r.dir, { timeoutMs: 200, env: r.env, sinceMs: never }));
    expect(s.files.map((f) => f.path)).toEqual(['x.txt']);
    expect(s.diagnostics).toEqual([expect.stringMatching(/turn start not known/)]);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (killed, not yet reaped by a non-reaping PID 1 in a container) is dead for our purposes.
  const stat = `/proc/${pid}/stat`;
  if (existsSync(stat)) return !/^\d+ \(.*\) Z /.test(readFileSync(stat, 'utf8'));
  return true;
}

async function waitFor(condition: () => boolean, deadlineMs: number): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('readGitSnapshot: git processes on the common layout', () => {
  function recordingGit(r: TempGitRepo): { gitBinary: string; calls: () => string[] } {
    const log = join(r.dir, '..', 'git-calls.log');
    const gitBinary = join(r.dir, '..', 'recording-git');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(gitBinary, `#!/bin/sh\necho "$*" >> "${log}"\nexec "${realGit}" "$@"\n`, { mode: 0o755 });
    const withoutSettings = (line: string): string => line.replace(/^(?:-c \S*\s)+/, '');
    return { gitBinary, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map(withoutSettings) : []) };
  }

  it('a plain repository: only `git status` runs, and the root is what rev-parse would print', async () => {
    const r = repo();
    r.write('sub/a.txt');
    const git = recordingGit(r);
    const s = expectRepo(await snapshot(r, join(r.dir, 'sub'), { gitBinary: git.gitBinary }));
    expect(s.root).toBe(r.git(['rev-parse', '--show-toplevel']).trim());
    expect(s.files.map((f) => f.path)).toEqual(['sub/a.txt']);
    expect(git.calls().map((c) => c.split(' ').find((w) => !w.startsWith('-')))).toEqual(['status']);
  });

  it('core.worktree set: rev-parse still tells the top level', async () => {
    const r = repo();
    const elsewhere = join(r.dir, '..', 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'b.txt'), 'b\n');
    r.git(['config', 'core.worktree', elsewhere]);
    const git = recordingGit(r);
    const s = expectRepo(await snapshot(r, r.dir, { gitBinary: git.gitBinary }));
    expect(s.root).toBe(elsewhere);
    // Paths are relative to that top level, so the new file there is found and stat'ed.
    expect(s.files.find((f) => f.path === 'b.txt')).toEqual(expect.objectContaining({ status: 'untracked', mtimeMs: expect.any(Number) }));
    expect(git.calls().some((c) => c.includes('rev-parse --show-toplevel'))).toBe(true);
  });
});
