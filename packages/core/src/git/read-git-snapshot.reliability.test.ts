import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGitSnapshot } from './read-git-snapshot.ts';
import { makeTempDir, makeTempGitRepo, type TempGitRepo } from './temp-git-repo.ts';

// readGitSnapshot on hostile working trees and repositories (docs/reliability.md). Odd file names
// (newlines, quotes, non-UTF-8 bytes), a file-level index.lock, a hanging git and its children, bare
// repositories and a missing git are in read-git-snapshot.test.ts. Here: what else a user's disk can
// hold — every call ends within its time limit with `repo`, `not-a-repo` or a one-line `error`, and
// nothing of the user's is modified.

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function repo(): TempGitRepo {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  r.write('tracked.txt', 'one\n');
  r.git(['add', '-A']);
  r.commit('base');
  return r;
}

/** The contract: one of the three kinds, in bounded time, an error being one line. */
async function snapshotWithin(cwd: string, env: Readonly<Record<string, string | undefined>>, options: { timeoutMs?: number; gitBinary?: string } = {}) {
  const started = Date.now();
  const result = await readGitSnapshot(cwd, { timeoutMs: options.timeoutMs ?? 5_000, env, ...(options.gitBinary ? { gitBinary: options.gitBinary } : {}) });
  expect(Date.now() - started).toBeLessThan((options.timeoutMs ?? 5_000) + 5_000);
  expect(['repo', 'not-a-repo', 'error']).toContain(result.kind);
  if (result.kind === 'error') expect(result.message).not.toContain('\n');
  return result;
}

describe('hostile working trees', () => {
  it('a symlink loop and a dangling symlink are listed as (untracked) links, never followed', async () => {
    const r = repo();
    symlinkSync('loop', join(r.dir, 'loop'));
    symlinkSync('nowhere/at/all', join(r.dir, 'dangling'));
    const s = await snapshotWithin(r.dir, r.env);
    expect(s.kind === 'repo' && s.files.map((f) => f.path).sort()).toEqual(['dangling', 'loop']);
  });

  it('a FIFO and a directory of 10,000 entries: no blocking', { timeout: 60_000 }, async () => {
    const r = repo();
    execFileSync('mkfifo', [join(r.dir, 'pipe')]);
    mkdirSync(join(r.dir, 'many'));
    for (let i = 0; i < 10_000; i++) writeFileSync(join(r.dir, 'many', `f${i}`), '');
    const s = await snapshotWithin(r.dir, r.env, { timeoutMs: 30_000 });
    expect(s.kind).toBe('repo');
    if (s.kind === 'repo') {
      expect(s.files.some((f) => f.path === 'pipe')).toBe(false);
      expect(s.files.filter((f) => f.path.startsWith('many/'))).toHaveLength(10_000);
    }
  });

  it('10,000 entries and a tight time limit: a one-line timeout error, in bounded time', { timeout: 60_000 }, async () => {
    const r = repo();
    mkdirSync(join(r.dir, 'many'));
    for (let i = 0; i < 10_000; i++) writeFileSync(join(r.dir, 'many', `f${i}`), '');
    const s = await snapshotWithin(r.dir, r.env, { timeoutMs: 20 });
    // On a fast machine git may finish in time; either way the call ends at once.
    if (s.kind === 'error') {
      expect(s.message).toMatch(/^[^\n]* timed out after \d+ ms$/);
    } else {
      expect(s.kind).toBe('repo');
    }
  });
});

describe('hostile working directories', () => {
  it.each([
    ['a symlink loop', (base: string) => (symlinkSync(join(base, 'loop'), join(base, 'loop')), join(base, 'loop'))],
    ['a regular file', (base: string) => (writeFileSync(join(base, 'file'), 'x'), join(base, 'file'))],
    ['a FIFO', (base: string) => (execFileSync('mkfifo', [join(base, 'fifo')]), join(base, 'fifo'))],
    ['a path through a regular file', (base: string) => (writeFileSync(join(base, 'f'), 'x'), join(base, 'f', 'sub'))],
    ['a path longer than PATH_MAX', (base: string) => join(base, `${'d'.repeat(200)}/`.repeat(25))],
    ['a relative path', () => 'some/relative/dir'],
    ['a path holding a NUL byte', (base: string) => `${base}/a\u0000b`],
  ])('%s: not-a-repo or a one-line error', async (_name, make) => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const s = await snapshotWithin(make(d.dir), d.env);
    expect(s.kind).not.toBe('repo');
  });
});

describe('hostile repositories', () => {
  it('.git is a FIFO: no blocking', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    execFileSync('mkfifo', [join(d.dir, '.git')]);
    const s = await snapshotWithin(d.dir, d.env, { timeoutMs: 3_000 });
    expect(s.kind).not.toBe('repo');
  });

  it('.git is a gitfile pointing nowhere, or at itself', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    writeFileSync(join(d.dir, '.git'), 'gitdir: /nonexistent/gitdir\n');
    expect((await snapshotWithin(d.dir, d.env)).kind).not.toBe('repo');
    writeFileSync(join(d.dir, '.git'), `gitdir: ${join(d.dir, '.git')}\n`);
    expect((await snapshotWithin(d.dir, d.env)).kind).not.toBe('repo');
  });

  it.each([
    ['a corrupt index', (r: TempGitRepo) => writeFileSync(join(r.dir, '.git', 'index'), Buffer.from('DIRC\u0000\u0000\u0000\u0002garbage'))],
    ['a corrupt HEAD', (r: TempGitRepo) => writeFileSync(join(r.dir, '.git', 'HEAD'), 'ref: refs/heads/../../../../etc/passwd\n')],
    ['HEAD pointing at a missing object', (r: TempGitRepo) => writeFileSync(join(r.dir, '.git', 'refs', 'heads', 'main'), `${'0'.repeat(39)}1\n`)],
    ['an index that is a directory', (r: TempGitRepo) => (rmSync(join(r.dir, '.git', 'index')), mkdirSync(join(r.dir, '.git', 'index')))],
    ['objects replaced by a file', (r: TempGitRepo) => (rmSync(join(r.dir, '.git', 'objects'), { recursive: true }), writeFileSync(join(r.dir, '.git', 'objects'), 'x'))],
  ])('%s: a result, never a hang; nothing written to .git', async (_name, damage) => {
    const r = repo();
    r.write('tracked.txt', 'two\n');
    damage(r);
    const before = listGitDir(r.dir);
    await snapshotWithin(r.dir, r.env);
    expect(listGitDir(r.dir)).toEqual(before);
  });

  it('index.lock held by a live `git commit -a` (editor open): the snapshot is read, the lock untouched', { timeout: 30_000 }, async () => {
    const r = repo();
    r.write('tracked.txt', 'changed\n');
    const pidFile = join(r.dir, '..', 'editor.pid');
    const committer = spawn('git', ['commit', '-a'], {
      cwd: r.dir,
      env: { ...r.env, GIT_EDITOR: `echo $$ > '${pidFile}'; exec sleep 120;:` } as NodeJS.ProcessEnv,
      detached: true,
      stdio: 'ignore',
    });
    cleanups.push(() => {
      try {
        process.kill(-(committer.pid ?? 0), 'SIGKILL');
      } catch {
        // Already gone.
      }
    });
    const lock = join(r.dir, '.git', 'index.lock');
    const deadline = Date.now() + 15_000;
    while (!(existsSync(lock) && existsSync(pidFile)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(existsSync(lock)).toBe(true);
    const before = { bytes: readFileSync(lock), mtimeMs: statSync(lock).mtimeMs };
    const s = await snapshotWithin(r.dir, r.env);
    expect(s.kind === 'repo' && s.files.map((f) => [f.path, f.status])).toEqual([['tracked.txt', 'modified']]);
    expect(readFileSync(lock)).toEqual(before.bytes);
    expect(statSync(lock).mtimeMs).toBe(before.mtimeMs);
  });
});

describe('a git that will not die', () => {
  it('a grandchild in its own session holds stdout open: the call still ends at its time limit', { timeout: 30_000 }, async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const pids = join(d.dir, 'pids');
    const script = join(d.dir, 'fake-git');
    // `setsid` puts the sleeper outside git's process group, so the group kill cannot reach it, and it
    // inherits stdout: the pipe never closes.
    writeFileSync(script, `#!/bin/sh\nsetsid sh -c 'echo $$ >> "${pids}"; exec sleep 120' &\ntrap '' TERM\nexec sleep 120\n`, { mode: 0o755 });
    cleanups.push(() => {
      for (const pid of existsSync(pids) ? readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number) : []) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone.
        }
      }
    });
    const s = await snapshotWithin(d.dir, d.env, { timeoutMs: 500, gitBinary: script });
    expect(s).toEqual({ kind: 'error', message: expect.stringMatching(/timed out after 500 ms/) });
  });
});

function listGitDir(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string): void => {
    for (const name of execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).split('\n').filter(Boolean)) {
      const path = join(dir, name);
      const info = statSync(path, { throwIfNoEntry: false });
      out.push(`${path.slice(root.length)} ${info?.size ?? '?'} ${info?.mtimeMs ?? '?'}`);
      if (info?.isDirectory()) visit(path);
    }
  };
  visit(join(root, '.git'));
  return out.sort();
}
