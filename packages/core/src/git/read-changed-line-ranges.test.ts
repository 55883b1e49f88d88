import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatLineRanges, parseUnifiedZeroDiff, readChangedLineRanges } from './read-changed-line-ranges.ts';
import { makeTempGitRepo, type TempGitRepo } from './temp-git-repo.ts';

const repos: TempGitRepo[] = [];
afterEach(() => {
  while (repos.length > 0) repos.pop()?.remove();
});

function repo(): TempGitRepo {
  const r = makeTempGitRepo();
  repos.push(r);
  return r;
}

const lines = (n: number, tag = 'line'): string => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n') + '\n';

describe('readChangedLineRanges (the line ranges of the files in progress)', () => {
  it('gives the new side of each change per file, near hunks merged; untracked and deleted files have none', async () => {
    const r = repo();
    r.write('src/oauth.ts', lines(200));
    r.write('src/gone.ts', lines(3));
    r.write('sp ace.txt', lines(5));
    r.git(['add', '.']);
    r.commit('base');
    const edited = lines(200).split('\n');
    edited[44] = 'changed 45';
    edited[49] = 'changed 50';
    edited[119] = 'changed 120';
    r.write('src/oauth.ts', edited.join('\n'));
    r.write('sp ace.txt', lines(7));
    r.git(['rm', '-q', 'src/gone.ts']);
    r.write('src/new.ts', lines(4));
    const ranges = await readChangedLineRanges(r.dir, { timeoutMs: 10_000, env: r.env });
    expect(Object.fromEntries(ranges)).toEqual({
      'src/oauth.ts': [
        { start: 45, end: 50 },
        { start: 120, end: 120 },
      ],
      'sp ace.txt': [{ start: 6, end: 7 }],
    });
    expect(formatLineRanges(ranges.get('src/oauth.ts') ?? [])).toBe('45-50, 120');
  });

  it('runs no filter driver the repository configures, and fails to an empty map outside a repository', async () => {
    const r = repo();
    r.write('.gitattributes', '*.txt filter=evil\n');
    r.write('a.txt', lines(3));
    r.git(['add', '.']);
    r.commit('base');
    const marker = join(r.dir, '..', 'filter-ran');
    r.git(['config', 'filter.evil.clean', `touch ${marker}; cat`]);
    r.write('a.txt', lines(4));
    const ranges = await readChangedLineRanges(r.dir, { timeoutMs: 10_000, env: r.env });
    expect(ranges.get('a.txt')).toEqual([{ start: 4, end: 4 }]);
    expect(existsSync(marker)).toBe(false);
    expect((await readChangedLineRanges(join(r.dir, '..'), { timeoutMs: 10_000, env: r.env })).size).toBe(0);
  });

  it('a diff over the output cap gives no ranges rather than a partial answer', async () => {
    const r = repo();
    r.write('big.txt', lines(10));
    r.git(['add', '.']);
    r.commit('base');
    r.write('big.txt', lines(5000, 'other'));
    expect((await readChangedLineRanges(r.dir, { timeoutMs: 10_000, env: r.env, maxDiffBytes: 1024 })).size).toBe(0);
  });

  it('parses pure deletions, quoted names and many hunks (at most five ranges a file)', () => {
    const diff = [
      'diff --git a/x.ts b/x.ts',
      '+++ b/x.ts',
      '@@ -2 +1,0 @@',
      'diff --git "a/q\\"x" "b/q\\"x"',
      '+++ "b/q\\"x"',
      '@@ -1 +1 @@',
      'diff --git a/many b/many',
      '+++ b/many',
      ...Array.from({ length: 8 }, (_, i) => `@@ -${i * 100 + 1} +${i * 100 + 1} @@`),
    ].join('\n');
    const parsed = parseUnifiedZeroDiff(diff);
    expect(parsed.get('x.ts')).toEqual([{ start: 1, end: 1 }]);
    expect([...parsed.keys()]).toEqual(['x.ts', 'many']);
    expect(parsed.get('many')).toHaveLength(5);
  });
});
