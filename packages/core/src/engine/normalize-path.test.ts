import { describe, expect, test } from 'vitest';
import { pathKey, toRepoGlob, toRepoPath } from './normalize-path.ts';

const base = { root: '/repo', cwd: '/repo' };

describe('toRepoPath', () => {
  test.each([
    ['a.py', 'a.py'],
    ['./a.py', 'a.py'],
    ['/repo/a.py', 'a.py'],
    ['/repo/./src/../a.py', 'a.py'],
    ['src//x.ts', 'src/x.ts'],
    ['file:///repo/a%20b.py', 'a b.py'],
    ['/private/var/repo/x', undefined],
  ])('%s → %s', (input, expected) => {
    expect(toRepoPath(input, base)).toBe(expected);
  });

  test('segments, not characters, are stripped (no lstrip("./") mangling)', () => {
    expect(toRepoPath('.pre-commit-config.yaml', base)).toBe('.pre-commit-config.yaml');
    expect(toRepoPath('./.agents/x.md', base)).toBe('.agents/x.md');
    expect(toRepoPath('..hidden/x', base)).toBe('..hidden/x');
  });

  test('paths outside the repository are dropped', () => {
    expect(toRepoPath('../x.py', base)).toBeUndefined();
    expect(toRepoPath('/etc/hosts', base)).toBeUndefined();
    expect(toRepoPath('/repository/x', base)).toBeUndefined();
    expect(toRepoPath('~/x', base)).toBeUndefined();
    expect(toRepoPath('/repo', base)).toBeUndefined();
    expect(toRepoPath('', base)).toBeUndefined();
  });

  test('relative paths resolve against cwd and a cd-ed directory', () => {
    const sub = { root: '/repo', cwd: '/repo/packages/core' };
    expect(toRepoPath('src/a.ts', sub)).toBe('packages/core/src/a.ts');
    expect(toRepoPath('../cli/b.ts', sub)).toBe('packages/cli/b.ts');
    expect(toRepoPath('x.ts', base, 'web')).toBe('web/x.ts');
    expect(toRepoPath('x.ts', base, '/repo/api')).toBe('api/x.ts');
  });

  test('macOS /private prefixes compare equal', () => {
    expect(toRepoPath('/private/var/folders/r/x.py', { root: '/var/folders/r', cwd: '/var/folders/r' })).toBe('x.py');
    expect(toRepoPath('/tmp/r/x.py', { root: '/private/tmp/r', cwd: '/private/tmp/r' })).toBe('x.py');
  });
});

describe('pathKey', () => {
  test('inside: repo-relative; outside: absolute', () => {
    expect(pathKey('/repo/a.py', base)).toBe('a.py');
    expect(pathKey('../other/x.py', base)).toBe('/other/x.py');
  });
});

describe('toRepoGlob', () => {
  test('joins the directory', () => {
    expect(toRepoGlob('*.pyc', base)).toBe('*.pyc');
    expect(toRepoGlob('*.pyc', base, 'build')).toBe('build/*.pyc');
    expect(toRepoGlob('/repo/dist/*.js', base)).toBe('dist/*.js');
    expect(toRepoGlob('../*.js', base)).toBeUndefined();
  });
});

describe('Windows paths (drive, UNC, either slash, case-insensitive like the file system)', () => {
  const win = { root: 'C:/Users/Dev/repo', cwd: 'C:\\Users\\Dev\\repo' };

  test.each([
    ['C:\\Users\\Dev\\repo\\src\\a.ts', 'src/a.ts'],
    ['C:/Users/Dev/repo/src/a.ts', 'src/a.ts'],
    ['c:\\users\\dev\\REPO\\src\\a.ts', 'src/a.ts'],
    ['\\\\?\\C:\\Users\\Dev\\repo\\src\\a.ts', 'src/a.ts'],
    ['src\\a.ts', 'src/a.ts'],
    ['.\\src\\..\\b.ts', 'b.ts'],
    ['/c/Users/Dev/repo/src/a.ts', 'src/a.ts'],
    ['C:\\Users\\Dev\\repo', undefined],
    ['C:\\Users\\Dev\\repo2\\a.ts', undefined],
    ['D:\\Users\\Dev\\repo\\a.ts', undefined],
    ['..\\other\\a.ts', undefined],
  ])('%s → %s', (input, expected) => {
    expect(toRepoPath(input, win)).toBe(expected);
  });

  test('the part below the root keeps the case it was written in', () => {
    expect(toRepoPath('C:\\USERS\\dev\\Repo\\Src\\A.ts', win)).toBe('Src/A.ts');
  });

  test('the root and cwd may come in either spelling (payload backslashes, git forward slashes)', () => {
    expect(toRepoPath('C:/Users/Dev/repo/x.ts', { root: 'C:\\Users\\Dev\\repo', cwd: 'c:/users/dev/repo' })).toBe('x.ts');
    expect(toRepoPath('lib\\y.ts', { root: 'C:\\Users\\Dev\\repo', cwd: 'C:\\Users\\Dev\\repo\\packages\\core' })).toBe(
      'packages/core/lib/y.ts',
    );
  });

  test('UNC roots: \\\\server\\share and //server/share are one path, server and share without case', () => {
    const unc = { root: '\\\\Server\\Share\\repo', cwd: '\\\\Server\\Share\\repo' };
    expect(toRepoPath('\\\\server\\share\\repo\\src\\a.ts', unc)).toBe('src/a.ts');
    expect(toRepoPath('//SERVER/share/repo/src/a.ts', unc)).toBe('src/a.ts');
    expect(toRepoPath('\\\\?\\UNC\\server\\share\\repo\\a.ts', unc)).toBe('a.ts');
    expect(toRepoPath('\\\\server\\other\\repo\\a.ts', unc)).toBeUndefined();
    expect(toRepoPath('C:\\repo\\a.ts', unc)).toBeUndefined();
  });

  test('a Windows path never lands inside a POSIX repository, and /c/… stays a POSIX directory there', () => {
    expect(toRepoPath('C:\\repo\\a.py', base)).toBeUndefined();
    expect(toRepoPath('/c/x', { root: '/c', cwd: '/c' })).toBe('x');
  });

  test('pathKey of a file outside a Windows repository is its canonical absolute path, equal across spellings', () => {
    expect(pathKey('D:\\tmp\\x.log', win)).toBe('/d:/tmp/x.log');
    expect(pathKey('d:/tmp/x.log', win)).toBe('/d:/tmp/x.log');
  });

  test('globs under a Windows root', () => {
    expect(toRepoGlob('C:\\Users\\Dev\\repo\\dist\\*.js', win)).toBe('dist/*.js');
    expect(toRepoGlob('*.js', win, 'build')).toBe('build/*.js');
    expect(toRepoGlob('*.js', win, 'C:\\Users\\dev\\repo\\out')).toBe('out/*.js');
    expect(toRepoGlob('*.js', win, 'D:\\elsewhere')).toBeUndefined();
  });
});
