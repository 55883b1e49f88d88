import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM build script without type declarations
import { mainBundleOptions } from '../build-hook.mjs';

// The context checkpoint system (@agent-checkpoint/context-checkpoint) is in the hook bundle, but the
// default end-of-turn path must not evaluate it: the routes reach it only through the package's
// `./load` manifest (type imports from core; its section keys and zod-free accessors), which
// `import()`s a feature when the config asks for it, and the config sections (schemas, zod) only
// when a configuration file sets one of their keys.

type Inputs = Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;

async function bundleInputs(): Promise<Inputs> {
  const options = mainBundleOptions('/dev/null/unused.cjs') as Parameters<typeof build>[0];
  const result = await build({ ...options, write: false, metafile: true, logLevel: 'silent' });
  return result.metafile.inputs as Inputs;
}

/** Every module `from` initialises through static imports (dynamic `import()`s not followed). */
function staticClosure(inputs: Inputs, from: string): Set<string> {
  const entry = Object.keys(inputs).find((path) => path.endsWith(from));
  if (entry === undefined) throw new Error(`${from} not in the metafile`);
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

const contextModules = (paths: Iterable<string>): string[] =>
  [...paths].filter((path) => path.includes('context-checkpoint/src/')).map((path) => path.slice(path.indexOf('context-checkpoint/src/')));

describe('the hook bundle and the context checkpoint package', () => {
  it('the checkpoint phase statically reaches only the ./load manifest; the features are in the bundle behind import()', async () => {
    const inputs = await bundleInputs();
    const closure = staticClosure(inputs, 'src/run-checkpoint-phase.ts');
    // The manifest, its section keys, the zod-free accessors (defaults; the tracker's accessor checks its
    // settings by hand, without zod; claude-mem's defaults) and the "is a feature on?" test the manifest asks — never the
    // sections' schemas; and the commit gate's two cheap route-facing parts (arming it with a granted
    // block, the flag the escape-hatch stop checks with one stat), which the manifest re-exports.
    expect(contextModules(closure).sort()).toEqual([
      'context-checkpoint/src/commit-gate/commit-gate-claim.ts',
      'context-checkpoint/src/commit-gate/commit-gate-marker.ts',
      'context-checkpoint/src/config/context-config.ts',
      'context-checkpoint/src/config/section-keys.ts',
      'context-checkpoint/src/load-turn-end-extensions.ts',
      'context-checkpoint/src/memory-service/memory-settings.ts',
      'context-checkpoint/src/tracker/tracker-settings.ts',
      'context-checkpoint/src/wants-context-checkpoint.ts',
    ]);
    // Nor core's section kit or full zod (zod/mini is already on the default path, for session state).
    expect([...closure].filter((path) => /config-section-kit|define-config-section|context-sections|zod\/v4\/classic/.test(path))).toEqual([]);
    // Bundled all the same (the hook is one file), reached from the manifest only dynamically.
    const bundled = contextModules(Object.keys(inputs));
    expect(bundled).toEqual(
      expect.arrayContaining([
        'context-checkpoint/src/extensions/test-run-extension.ts',
        'context-checkpoint/src/extensions/context-checkpoint-extension.ts',
        'context-checkpoint/src/config/context-sections.ts',
      ]),
    );
  }, 60_000);
});
