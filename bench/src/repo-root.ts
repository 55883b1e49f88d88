import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The monorepo root (the directory holding pnpm-workspace.yaml), found from this module's location so
 * it works from the sources (tests) and from the bundles in bench/.work/bin alike.
 */
export function findRepoRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`);
    dir = parent;
  }
}

/** Paths the benchmarks use, all derived from the repository root. */
export function benchPaths(root: string = findRepoRoot()) {
  const bench = join(root, 'bench');
  const work = join(bench, '.work');
  return {
    root,
    bench,
    /** Git-ignored (root .gitignore: `bench/.work/`): bundles, generated transcripts, profiles. */
    work,
    bin: join(work, 'bin'),
    transcripts: join(work, 'transcripts'),
    fixtures: join(root, 'fixtures'),
    /** The `agent-checkpoint-hook` bin: the launcher that runs {@link hookMain} through a V8 code cache. */
    hookBundle: join(root, 'packages', 'delivery-hook', 'dist', 'agent-checkpoint-hook.cjs'),
    /** The hook itself, one CommonJS file (the launcher compiles it with vm.Script). */
    hookMain: join(root, 'packages', 'delivery-hook', 'dist', 'agent-checkpoint-hook-main.cjs'),
    /** The build script; bench/ builds variants through its exports so they cannot drift from it. */
    buildHookScript: join(root, 'packages', 'delivery-hook', 'build-hook.mjs'),
    tmuxBundle: join(root, 'packages', 'delivery-tmux', 'dist', 'agent-checkpoint-tmux.mjs'),
    fakeCodex: join(root, 'packages', 'delivery-tmux', 'src', '__fixtures__', 'fake-codex', 'codex.js'),
    resultsJson: join(bench, 'results.json'),
    benchmarksMd: join(root, 'docs', 'benchmarks.md'),
  } as const;
}

export type BenchPaths = ReturnType<typeof benchPaths>;
