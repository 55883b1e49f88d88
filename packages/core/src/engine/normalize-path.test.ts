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
