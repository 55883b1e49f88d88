import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM build script without type declarations
import { mainBundleOptions } from '../../build-hook.mjs';

// The hook's first phase (stdin, payload, escape hatch, off switches) must not initialise all of core:
// bundled, a static import of the core package root runs every core module's initialiser at first
// use, which the escape-hatch stop pays on every blocked turn (docs/benchmarks.md). The checkpoint
// phase, behind the lazy import of run-checkpoint-phase.ts, may use the root.

type Inputs = Metafile['inputs'];
let bundleInputs: Promise<Inputs> | undefined;

function inputsOfBundle(): Promise<Inputs> {
  const options = mainBundleOptions('/dev/null/unused.cjs') as Parameters<typeof build>[0];
  bundleInputs ??= build({ ...options, write: false, metafile: true, logLevel: 'silent' }).then((result) => result.metafile.inputs);
  return bundleInputs;
}

/** Every module the bundled module ending in `entrySuffix` imports statically, transitively. */
async function staticGraph(entrySuffix = 'src/cli.ts'): Promise<Set<string>> {
  const inputs = await inputsOfBundle();
  const entry = Object.keys(inputs).find((path) => path.endsWith(entrySuffix));
  if (entry === undefined) throw new Error(`${entrySuffix} not in the metafile`);
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const path = stack.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const imported of inputs[path]?.imports ?? []) if (imported.kind !== 'dynamic-import' && imported.external !== true) stack.push(imported.path);
  }
  return seen;
}

describe('the hook bundle', () => {
  it('reaches core only through @agent-checkpoint/core/hot-path before the checkpoint phase', async () => {
    const graph = await staticGraph();
    expect([...graph].filter((path) => path.endsWith('core/src/index.ts'))).toEqual([]);
    expect([...graph].some((path) => path.endsWith('core/src/hot-path.ts'))).toBe(true);
    // The pipeline itself stays lazy. Two leaves are allowed: the config loader's bounded,
    // non-blocking read (the monitor probes the config files with it), which imports only node:fs, and
    // the table of user commands (the monitor's L1 warning names one when the acting part cannot
    // load), which imports nothing.
    const leaves = ['core/src/config/read-config-bytes.ts', 'core/src/engine/user-commands.ts'];
    expect([...graph].filter((path) => /core\/src\/(engine|git|config)\//.test(path) && !leaves.some((leaf) => path.endsWith(leaf)))).toEqual([]);
    const inputs = await inputsOfBundle();
    for (const leaf of leaves) {
      const leafPath = Object.keys(inputs).find((path) => path.endsWith(leaf));
      if (leafPath !== undefined) expect(inputs[leafPath]?.imports.filter((imported) => imported.external !== true), leaf).toEqual([]);
    }
  }, 60_000);

  it('initialises fast-glob only when a fallback search runs, not with core or the transcript readers', async () => {
    // The readers find the transcript at the payload's path; fast-glob (with micromatch, braces and
    // @nodelib) is their last resort, and its module bodies and compiled code cost every hook process.
    for (const root of ['core/src/index.ts', 'transcript-claude/src/index.ts', 'transcript-gemini/src/index.ts', 'transcript-codex/src/index.ts']) {
      const graph = await staticGraph(root);
      expect([...graph].filter((path) => path.includes('/fast-glob@')), root).toEqual([]);
    }
  }, 60_000);

  it('bundles no proper-lockfile or graceful-fs: the session lock is a mkdir lock of core', async () => {
    // Loaded on every blocking run, proper-lockfile cost the hook its initialisation, graceful-fs's
    // patched `fs` copies and signal-exit's exit handler (docs/benchmarks.md).
    const inputs = Object.keys(await inputsOfBundle());
    expect(inputs.filter((path) => /\/(proper-lockfile|graceful-fs)@/.test(path))).toEqual([]);
  }, 60_000);
});
