import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, test } from 'vitest';
import type { ResolvedCategory, ResolvedConfig } from '../config/config-schema.ts';
import { PRESETS } from '../config/presets/index.ts';
import { resolveConfig } from '../config/resolve-config.ts';
import { abs, context, edit, files, read, shell, timeline } from './build-test-timeline.ts';
import { categorizeFiles, type Categorization } from './categorize-files.ts';
import { composeMessage } from './compose-message.ts';
import { runHeuristics } from './run-heuristics.ts';

/**
 * The categorization rules written the plain way (per file, per category, picomatch glob by glob):
 * the oracle the single-pass implementation must agree with.
 */
function referenceCategorize(paths: readonly string[], config: Pick<ResolvedConfig, 'categories' | 'docsPatterns'>): Categorization {
  const any = (globs: readonly string[], p: string): boolean => globs.some((g) => picomatchOne(g)(p));
  const inCat = (c: ResolvedCategory, p: string): boolean => any(c.include, p) && !any(c.exclude, p);
  const isDocs = (p: string): boolean => any(config.docsPatterns, p);
  const cats = (p: string): ResolvedCategory[] => config.categories.filter((c) => inCat(c, p));
  const nonDocs = paths.filter((p) => cats(p).length > 0 || !isDocs(p));
  const matched = config.categories.flatMap((category) => {
    const mine = paths.filter((p) => cats(p).includes(category));
    if (mine.length === 0) return [];
    if (category.onlyWhenAlone && !nonDocs.every((p) => cats(p).includes(category))) return [];
    return [{ category, files: mine }];
  });
  const categorized = new Set(matched.flatMap((m) => m.files));
  const docs = (p: string): boolean => cats(p).length === 0 && isDocs(p);
  return {
    matched,
    docsOnly: paths.filter((p) => !categorized.has(p) && docs(p)),
    uncategorized: paths.filter((p) => !categorized.has(p) && !docs(p)),
  };
}

const oneByOne = new Map<string, (path: string) => boolean>();
/** picomatch for one glob (compiled once per test run: the oracle is slow enough as it is). */
function picomatchOne(glob: string): (path: string) => boolean {
  let m = oneByOne.get(glob);
  if (!m) {
    try {
      m = picomatch(glob, { dot: true });
    } catch {
      m = () => false;
    }
    oneByOne.set(glob, m);
  }
  return m;
}

const project = (config: Parameters<typeof resolveConfig>[0][number]['config']): ResolvedConfig =>
  resolveConfig([{ config, source: { kind: 'project-file', name: 'test' } }]);

/** Every preset as a project gets it, the defaults, and a small config where "only when alone" often decides. */
const CONFIGS: readonly { readonly name: string; readonly config: ResolvedConfig }[] = [
  { name: 'defaults', config: resolveConfig([]) },
  ...Object.keys(PRESETS).map((id) => ({ name: id, config: project({ extends: id }) })),
  {
    name: 'custom',
    config: project({
      docsPatterns: ['**/*.md', 'docs/**', '**/*.txt'],
      categories: [
        { id: 'tests-only', label: 'tests', include: ['**/*.test.ts', 'tests/**'], exclude: ['tests/fixtures/**'], action: 'Run the tests', onlyWhenAlone: true },
        { id: 'reqs', label: 'requirements', include: ['requirements*.txt'], action: 'Install' },
        { id: 'ts', label: 'TypeScript', include: ['**/*.ts'], exclude: ['**/*.test.ts', 'tests/**'], action: 'Type-check' },
      ],
    }),
  },
];

const SEGMENT = fc.constantFrom(
  'src', 'docs', 'tests', 'fixtures', 'node_modules', 'dist', 'packages', 'core', 'teleclaude', 'hooks', 'cli', 'tui', 'agents',
  'skills', 'migrations', 'cmd', 'package.json', 'pnpm-lock.yaml', 'tsconfig.json', 'Cargo.toml', 'go.mod', 'pyproject.toml',
  'uv.lock', 'requirements.txt', 'requirements-dev.txt', 'docker-compose.yml', 'Dockerfile', 'Makefile', 'config.yml',
  'README.md', 'CHANGELOG', 'x.md', 'SKILL.md', 'notes.txt', 'a.ts', 'a.test.ts', 'a.js', 'a.py', 'test_a.py', 'a_test.go',
  'a.go', 'a.rs', 'a.vue', '.env', 'a[1].ts',
);
const PATH = fc.array(SEGMENT, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
/** Changed-file lists: usually distinct, sometimes with a repeated path (the rules must not care). */
const PATHS = fc.oneof(fc.array(PATH, { maxLength: 3 }), fc.array(PATH, { maxLength: 12 }));

describe('categorizeFiles (single pass, compiled globs)', () => {
  test.each(CONFIGS)('$name: agrees with the rules applied file by file, category by category', ({ config }) => {
    fc.assert(
      fc.property(PATHS, (paths) => {
        expect(categorizeFiles(paths, config)).toEqual(referenceCategorize(paths, config));
      }),
      { numRuns: 200 },
    );
  });
});

describe('one categorization per checkpoint', () => {
  test.each(CONFIGS)('$name: heuristics and message are the same whether the categorization is passed in or computed', ({ config }) => {
    fc.assert(
      fc.property(fc.uniqueArray(PATH, { maxLength: 10 }), fc.boolean(), fc.boolean(), (paths, silentWhenAllClear, testsRan) => {
        const cfg = { ...config, silentWhenAllClear, silentWhenNoChanges: silentWhenAllClear };
        const calls = [...paths.flatMap((p) => [read(abs(p), { id: `r-${p}` }), edit(abs(p), { id: `e-${p}` })]), ...(testsRan ? [shell('pnpm test', { id: 's' })] : [])];
        const turn = timeline(calls);
        const attributed = files(paths);
        const ctx = context({ elapsedSeconds: 60 });
        const categorization = categorizeFiles(paths, cfg);
        const given = runHeuristics(attributed, turn, ctx, cfg, categorization);
        const computed = runHeuristics(attributed, turn, ctx, cfg);
        expect(given).toEqual(computed);
        const options = { sessionId: 'property' };
        expect(composeMessage(given, attributed, cfg, { ...options, categorization })).toBe(composeMessage(computed, attributed, cfg, options));
      }),
      { numRuns: 100 },
    );
  });
});
