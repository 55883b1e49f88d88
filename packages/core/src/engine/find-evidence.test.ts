import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { abs, edit, shell, write } from './build-test-timeline.ts';
import { lastMutationOf } from './find-evidence.ts';
import { globMatcher } from './glob-match.ts';
import { comparePositions, computeTimelineFacts, mutationTookEffect, type Position, type TimelineFacts } from './timeline-facts.ts';

const base = { root: '/repo', cwd: '/repo' };

/** The rule written plainly: index every file and every directory above one, then take the latest hit. */
function reference(facts: TimelineFacts, files: readonly string[]): Position | undefined {
  if (files.length === 0) return undefined;
  const set = new Set(files);
  const dirs = new Set<string>();
  for (const f of files) for (let i = f.indexOf('/'); i !== -1; i = f.indexOf('/', i + 1)) dirs.add(f.slice(0, i));
  let last: Position | undefined;
  const later = (p: Position): void => {
    if (last === undefined || comparePositions(p, last) > 0) last = p;
  };
  for (const f of facts.calls) {
    if (!mutationTookEffect(f.call)) continue;
    for (const m of f.mutations) if (m.repoPath !== undefined && (set.has(m.repoPath) || dirs.has(m.repoPath))) later({ call: f.index, segment: m.segment });
    for (const g of f.mutationGlobs) if (files.some((file) => globMatcher([g.glob])(file))) later({ call: f.index, segment: g.segment });
  }
  return last;
}

const DIR = fc.constantFrom('src', 'src/a', 'src/ab', 'lib', 'lib/x', 'tests');
const NAME = fc.constantFrom('f.ts', 'g.ts', 'h.py', 'a', 'ab');
const FILE = fc.tuple(DIR, NAME).map(([d, n]) => `${d}/${n}`);
/** Calls that mutate files, directories and globs, sometimes several in one command, sometimes failing. */
const CALL = fc.oneof(
  FILE.map((f) => edit(abs(f))),
  FILE.map((f) => write(abs(f), { outcome: 'error' })),
  DIR.map((d) => shell(`rm -rf ${d}`)),
  fc.tuple(DIR, FILE).map(([d, f]) => shell(`touch ${f} && rm -r ${d}`)),
  DIR.map((d) => shell(`rm ${d}/*.ts`)),
  FILE.map((f) => shell(`sed -i s/a/b/ ${f}`, { exitCode: 1 })),
  FILE.map((f) => shell(`cat ${f}`)),
);

describe('lastMutationOf', () => {
  test('a directory mutation counts for the files under it, not for a sibling sharing its prefix', () => {
    const facts = computeTimelineFacts([edit(abs('lib/x/f.ts')), shell('rm -rf src/a')], base);
    expect(lastMutationOf(facts, ['src/a/f.ts'])).toEqual({ call: 1, segment: 0 });
    expect(lastMutationOf(facts, ['src/ab/f.ts'])).toBeUndefined();
    expect(lastMutationOf(facts, ['src/ab/f.ts', 'lib/x/f.ts'])).toEqual({ call: 0, segment: 0 });
  });

  test('the same answers once a turn has mutated many distinct paths', () => {
    const many = Array.from({ length: 12 }, (_, i) => edit(abs(`other/f${i}.ts`)));
    const facts = computeTimelineFacts([...many, shell('rm -rf src/a'), edit(abs('other/f0.ts'))], base);
    expect(lastMutationOf(facts, ['src/a/f.ts', 'lib/g.ts'])).toEqual({ call: 12, segment: 0 });
    expect(lastMutationOf(facts, ['src/ab/f.ts'])).toBeUndefined();
    expect(lastMutationOf(facts, ['other/f3.ts', 'src/a/f.ts'])).toEqual({ call: 12, segment: 0 });
    expect(lastMutationOf(facts, ['other/f0.ts'])).toEqual({ call: 13, segment: 0 });
  });

  test('agrees with indexing every file and directory, with few or many distinct targets', () => {
    fc.assert(
      fc.property(fc.array(CALL, { maxLength: 30 }), fc.array(FILE, { maxLength: 12 }), (calls, files) => {
        const facts = computeTimelineFacts(calls, base);
        expect(lastMutationOf(facts, files)).toEqual(reference(facts, files));
      }),
      { numRuns: 500 },
    );
  });
});
