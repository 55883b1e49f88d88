import { GiB, MiB } from './stats.ts';

/** What to measure; `--quick` is a smaller matrix for re-runs while iterating. */
export interface BenchOptions {
  readonly quick: boolean;
  readonly sizes: readonly { readonly label: string; readonly bytes: number }[];
  readonly changedFiles: readonly number[];
  /** Rounds per hook cell (each: one bare node + one hook run). */
  readonly runs: number;
  /** Rounds per hook cell that add a run with an empty code cache (the first run after install). */
  readonly firstRuns: number;
  /** Rounds of the naive reader per size (it takes seconds and GiBs on large files). */
  readonly naiveRuns: (bytes: number) => number;
  readonly tailRuns: number;
  readonly warmReads: number;
  readonly tmuxRuns: number;
  readonly variantRuns: number;
  /** Sections to run (default all). */
  readonly only: ReadonlySet<string> | undefined;
  /** Variant names to measure (default all); `shipped` is always included. */
  readonly variants: ReadonlySet<string> | undefined;
  /** Write docs/benchmarks.md and bench/results.json (default true). */
  readonly write: boolean;
  /** Measure nothing: render docs/benchmarks.md from bench/results.json (after editing the analysis). */
  readonly renderOnly: boolean;
}

export const SECTIONS = ['hook', 'tail', 'tmux', 'startup', 'variants', 'monitor'] as const;

const FULL_SIZES = [
  { label: '1 MiB', bytes: MiB },
  { label: '100 MiB', bytes: 100 * MiB },
  { label: '1 GiB', bytes: GiB },
];

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const value = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const runs = Number(value('runs') ?? (quick ? 5 : 15));
  const only = value('only');
  const variants = value('variants');
  // A lone `--` is what `pnpm bench -- --quick` passes on (pnpm 10 forwards the separator itself).
  const unknown = argv.filter((a) => a !== '--' && !/^--(quick|no-write|render|runs=\d+|variant-runs=\d+|only=[a-z,]+|variants=.+)$/.test(a));
  if (unknown.length > 0) {
    throw new Error(`unknown argument(s) ${unknown.join(' ')}; use --quick, --render, --runs=N, --variant-runs=N, --only=${SECTIONS.join(',')}, --variants=a,b, --no-write`);
  }
  return {
    quick,
    sizes: quick ? FULL_SIZES.slice(0, 2) : FULL_SIZES,
    changedFiles: [10, 5000],
    runs,
    firstRuns: Math.min(runs, quick ? 3 : 5),
    naiveRuns: (bytes) => (quick ? 1 : bytes >= 100 * MiB ? 3 : Math.min(runs, 10)),
    tailRuns: quick ? 5 : 11,
    warmReads: quick ? 10 : 30,
    tmuxRuns: quick ? 3 : 10,
    variantRuns: Number(value('variant-runs') ?? (quick ? 5 : 15)),
    only: only === undefined ? undefined : new Set(only.split(',')),
    variants: variants === undefined ? undefined : new Set(['shipped', ...variants.split(',')]),
    write: !argv.includes('--no-write'),
    renderOnly: argv.includes('--render'),
  };
}
