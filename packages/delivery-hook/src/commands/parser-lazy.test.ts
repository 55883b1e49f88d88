import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM build script without type declarations
import { mainBundleOptions } from '../../build-hook.mjs';

// The argument parser (commander) and the command modules are for people: a hook run by an agent must
// not evaluate them. Bundled, only modules reached by static imports from cli.ts run at start-up.

describe('the hook bundle', () => {
  it('reaches commander and the command programs only through a dynamic import', async () => {
    const options = mainBundleOptions('/dev/null/unused.cjs') as Parameters<typeof build>[0];
    const result = await build({ ...options, write: false, metafile: true, logLevel: 'silent' });
    const inputs = result.metafile.inputs;
    const entry = Object.keys(inputs).find((path) => path.endsWith('src/cli.ts'));
    expect(entry).toBeDefined();
    const seen = new Set<string>();
    const stack = [entry!];
    while (stack.length > 0) {
      const path = stack.pop()!;
      if (seen.has(path)) continue;
      seen.add(path);
      for (const imported of inputs[path]?.imports ?? []) if (imported.kind !== 'dynamic-import' && imported.external !== true) stack.push(imported.path);
    }
    const all = Object.keys(inputs);
    // Bundled at all (the management path needs it) …
    expect(all.some((path) => /node_modules\/.*commander\//.test(path))).toBe(true);
    // … but not on the static path.
    expect([...seen].filter((path) => /commander\/|cli-program\.ts$|hook-cli\.ts$|switch-commands\.ts$/.test(path))).toEqual([]);
  }, 60_000);
});
