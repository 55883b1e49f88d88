import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findWorkTreeRoot } from './find-work-tree-root.ts';
import { makeTempDir, makeTempGitRepo, type TempGitRepo } from './temp-git-repo.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(): TempGitRepo {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  return r;
}

/** What git itself answers in `cwd`. */
function gitTopLevel(r: TempGitRepo, cwd: string): string {
  return r.git(['rev-parse', '--show-toplevel'], { cwd }).replace(/\n$/, '');
}

describe('findWorkTreeRoot: the plain layouts give what `git rev-parse --show-toplevel` prints', () => {
  it('the top level itself and a nested subdirectory', () => {
    const r = repo();
    mkdirSync(join(r.dir, 'a', 'b'), { recursive: true });
    expect(findWorkTreeRoot(r.dir)?.toString('utf8')).toBe(gitTopLevel(r, r.dir));
    expect(findWorkTreeRoot(join(r.dir, 'a', 'b'))?.toString('utf8')).toBe(gitTopLevel(r, join(r.dir, 'a', 'b')));
  });

  it('a cwd reached through a symlink: the physical path, walked physically (as git does from getcwd)', () => {
    const r = repo();
    mkdirSync(join(r.dir, 'deep', 'sub'), { recursive: true });
    // The link's logical parent is outside the repository; git still finds it from the physical path.
    const outside = makeTempDir('ac-link-');
    cleanups.push(outside.remove);
    const link = join(outside.dir, 'link');
    symlinkSync(join(r.dir, 'deep', 'sub'), link);
    expect(findWorkTreeRoot(link)?.toString('utf8')).toBe(r.dir);
    expect(findWorkTreeRoot(link)?.toString('utf8')).toBe(gitTopLevel(r, link));
  });

  it('a linked worktree (a `gitdir:` file and a commondir)', () => {
    const r = repo();
    r.write('a.txt');
    r.git(['add', '-A']);
    r.commit('first');
    const tree = join(r.dir, '..', 'linked');
    r.git(['worktree', 'add', '-q', tree]);
    mkdirSync(join(tree, 'sub'));
    expect(findWorkTreeRoot(join(tree, 'sub'))?.toString('utf8')).toBe(gitTopLevel(r, join(tree, 'sub')));
    expect(gitTopLevel(r, join(tree, 'sub'))).toBe(join(r.dir, '..', 'linked'));
  });
});

describe('findWorkTreeRoot: anything else is left to git (undefined)', () => {
  it('core.worktree moves the top level elsewhere', () => {
    const r = repo();
    const elsewhere = join(r.dir, '..', 'elsewhere');
    mkdirSync(elsewhere);
    r.git(['config', 'core.worktree', elsewhere]);
    expect(gitTopLevel(r, r.dir)).toBe(elsewhere);
    expect(findWorkTreeRoot(r.dir)).toBeUndefined();
  });

  it('a config include (it could set core.worktree)', () => {
    const r = repo();
    r.git(['config', 'include.path', 'extra.config']);
    expect(findWorkTreeRoot(r.dir)).toBeUndefined();
  });

  it('an invalid nested `.git` that git skips to find the outer repository', () => {
    const r = repo();
    mkdirSync(join(r.dir, 'nested', '.git'), { recursive: true });
    expect(gitTopLevel(r, join(r.dir, 'nested'))).toBe(r.dir);
    expect(findWorkTreeRoot(join(r.dir, 'nested'))).toBeUndefined();
  });

  it('a `.git` file that points nowhere, and a HEAD git would not accept', () => {
    const r = repo();
    mkdirSync(join(r.dir, 'gitfile'));
    writeFileSync(join(r.dir, 'gitfile', '.git'), 'gitdir: ../missing\n');
    expect(findWorkTreeRoot(join(r.dir, 'gitfile'))).toBeUndefined();
    writeFileSync(join(r.dir, '.git', 'HEAD'), 'garbage\n');
    expect(findWorkTreeRoot(r.dir)).toBeUndefined();
  });

  it('inside the git directory, and outside any repository', () => {
    const r = repo();
    expect(findWorkTreeRoot(join(r.dir, '.git'))).toBeUndefined();
    expect(findWorkTreeRoot(join(r.dir, '.git', 'refs'))).toBeUndefined();
    const plain = makeTempDir();
    cleanups.push(plain.remove);
    expect(findWorkTreeRoot(plain.dir)).toBeUndefined();
    expect(findWorkTreeRoot(join(plain.dir, 'missing'))).toBeUndefined();
  });
});
