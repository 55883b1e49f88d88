import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../config/default-config.ts';
import { PRESETS } from '../config/presets/index.ts';
import { globMatcher } from './glob-match.ts';

/** The meaning globMatcher must keep: picomatch glob by glob, dot files included, a bad glob matches nothing. */
function reference(globs: readonly string[]): (path: string) => boolean {
  const each = globs.flatMap((g) => {
    try {
      return [picomatch(g, { dot: true })];
    } catch {
      return [];
    }
  });
  return (path) => each.some((m) => m(path));
}

/** Every glob list the built-in configuration and presets ship: categories, docs patterns, detection. */
const SHIPPED_LISTS: readonly (readonly string[])[] = (() => {
  const lists: (readonly string[])[] = [];
  const add = (config: typeof DEFAULT_CONFIG): void => {
    if (config.docsPatterns) lists.push(config.docsPatterns);
    for (const c of config.categories ?? []) {
      lists.push(c.include);
      if (c.exclude && c.exclude.length > 0) lists.push(c.exclude);
    }
  };
  add(DEFAULT_CONFIG);
  for (const preset of Object.values(PRESETS)) {
    add(preset.config);
    if (preset.detect.length > 0) lists.push(preset.detect);
  }
  return lists;
})();

/** Path segments the shipped globs care about, plus awkward ones. */
const SEGMENT = fc.oneof(
  fc.constantFrom(
    'src', 'docs', 'doc', 'tests', 'test', '__tests__', 'node_modules', 'dist', 'packages', 'core', '.github', 'teleclaude',
    'hooks', 'cli', 'tui', 'agents', 'skills', 'migrations', 'target', 'vendor', 'cmd', '.venv', 'build',
    'package.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'tsconfig.json', 'tsconfig.build.json', 'Cargo.toml',
    'Cargo.lock', 'go.mod', 'go.sum', 'pyproject.toml', 'uv.lock', 'poetry.lock', 'requirements.txt', 'requirements-dev.txt',
    'docker-compose.yml', 'compose.yaml', 'Dockerfile', 'Makefile', 'config.yml', 'README.md', 'CHANGELOG', 'LICENSE',
    'LICENSE.txt', 'x.md', 'x.mdx', 'x.rst', 'SKILL.md', 'a.ts', 'a.d.ts', 'a.test.ts', 'a.spec.tsx', 'a.mts', 'a.js',
    'a.py', 'test_a.py', 'a_test.go', 'a.go', 'a.rs', 'main.rs', 'a.vue', 'a.svelte', '.env', '.npmrc', '.hidden.ts',
    'a b.ts', 'a[1].ts', 'ünï.ts', '.', '..', '',
  ),
  fc.string({ unit: fc.constantFrom('a', 'b', '.', '-', '_', '*', '?', '[', ']', '{', '}', '!', '(', ')', '\\', ' ', 'é'), maxLength: 6 }),
);
const PATH = fc.array(SEGMENT, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));

/** Globs from a glob-heavy alphabet: extglobs, braces, classes, negation, escapes, and invalid ones. */
const GLOB = fc.oneof(
  fc.string({
    unit: fc.constantFrom('a', 'b', '.', '/', '*', '**', '?', '[a-c]', '[!a]', '{a,b}', '{,.ts}', '!', '!(a)', '@(a|b)', '+(a)', '(', ')', '[', '\\', 'ts', 'md', '$', '^'),
    maxLength: 8,
  }),
  fc.constantFrom('**/*.ts', '!**/*.md', 'src/**', '**/node_modules/**', 'a[1].ts', '[', '**/*.{ts,tsx}', '**/!(*.d).ts', ''),
);

/**
 * The property runs compare ~200,000 (path, list) pairs. vitest's `expect` costs ~10 µs a call (its
 * matcher machinery), which alone made the first property ~1.5 s and both together exceed vitest's
 * 5 s default on a loaded machine. The comparison is the same (strict equality of the two booleans);
 * a mismatch throws naming the globs, the path and both answers, and fast-check shrinks it as before.
 */
function assertSame(globs: readonly string[], path: string, got: boolean, want: boolean): void {
  if (got !== want) throw new Error(`globMatcher(${JSON.stringify(globs)})(${JSON.stringify(path)}) is ${got}, picomatch says ${want}`);
}

// A hang bound, not a speed budget (speed is measured in the benchmarks): each test takes well under
// a second idle; 30 s only keeps a pathological regex from wedging the suite.
describe('globMatcher (one compiled expression per list)', { timeout: 30_000 }, () => {
  test('every shipped glob list matches exactly what picomatch glob by glob matches', () => {
    expect(SHIPPED_LISTS.length).toBeGreaterThan(20);
    const pairs = SHIPPED_LISTS.map((list) => [list, globMatcher(list), reference(list)] as const);
    fc.assert(
      fc.property(PATH, (path) => {
        for (const [list, compiled, expected] of pairs) assertSame(list, path, compiled(path), expected(path));
      }),
      { numRuns: 1500 },
    );
  });

  test('random glob lists, valid or not, match exactly what picomatch glob by glob matches', () => {
    fc.assert(
      fc.property(fc.array(GLOB, { maxLength: 6 }), fc.array(fc.oneof(PATH, fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 20 }), (globs, paths) => {
        const compiled = globMatcher(globs);
        const expected = reference(globs);
        // The globs' own text as paths too: picomatch matches a path spelled exactly like the glob.
        for (const path of [...paths, ...globs]) assertSame(globs, path, compiled(path), expected(path));
      }),
      { numRuns: 2000 },
    );
  });

  test('edge cases: literal names, negation, empty and invalid globs', () => {
    // picomatch's literal shortcut: a path spelled like the glob matches even when the glob reads as a class.
    expect(globMatcher(['a[1].ts'])('a[1].ts')).toBe(true);
    expect(globMatcher(['a[1].ts'])('a1.ts')).toBe(true);
    expect(globMatcher(['{a,b}'])('{a,b}')).toBe(true);
    expect(globMatcher(['+(a)'])('+(a)')).toBe(true);
    expect(globMatcher(['src/@(a|b).ts'])('src/@(a|b).ts')).toBe(true);
    expect(globMatcher(['!**/*.md'])('x.ts')).toBe(true);
    expect(globMatcher(['!**/*.md'])('docs/x.md')).toBe(false);
    expect(globMatcher(['!**/*.md', 'docs/**'])('docs/x.md')).toBe(true);
    expect(globMatcher([])('a.ts')).toBe(false);
    expect(globMatcher([''])('a.ts')).toBe(false);
    expect(globMatcher(['**/*.ts'])('')).toBe(false);
    expect(globMatcher(['**/*.ts'])('.github/x.ts')).toBe(true);
    // An invalid glob matches nothing and does not spoil the valid ones beside it.
    for (const bad of ['[', '(', '!(']) {
      expect(globMatcher([bad, '**/*.py'])('a/b.py')).toBe(reference([bad, '**/*.py'])('a/b.py'));
      expect(globMatcher([bad, '**/*.py'])('a/b.ts')).toBe(false);
    }
  });
});
