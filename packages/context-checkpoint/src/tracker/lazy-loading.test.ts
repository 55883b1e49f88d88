import { describe, expect, it } from 'vitest';
import { build, type Metafile } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The hook loads this package on every turn end once context checkpoints are configured; the tracker and
 * claude-mem clients (and zod, which core also loads lazily) must cost nothing until they are used.
 * Bundles the package the way scripts/build-lib.mjs does and walks the entry's static imports. The
 * entry is the package root plus the tracker and memory-service modules (the root does not export them
 * until the handoff step wires them in), so the check holds for whoever imports them.
 */
describe('lazy loading of the tracker and memory clients', () => {
  it('the entry chunk statically reaches neither zod nor the Linear/claude-mem clients', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'tracker-bundle-'));
    try {
      const result = await build({
        stdin: {
          contents: "export * from '../index.ts';\nexport * from './index.ts';\nexport * from '../memory-service/index.ts';\n",
          resolveDir: __dirname,
          sourcefile: 'tracker-users-entry.ts',
          loader: 'ts',
        },
        outdir,
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        external: ['@agent-checkpoint/core', 'zod', 'node:*'],
        metafile: true,
        write: false,
        logLevel: 'silent',
      });
      const outputs: Metafile['outputs'] = result.metafile.outputs;
      // The stdin entry itself: the chunks of dynamic imports have an `entryPoint` too, and come first in some orders.
      const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint?.endsWith('tracker-users-entry.ts') === true);
      expect(entry).toBeDefined();
      const staticClosure = new Set<string>();
      const externals = new Set<string>();
      const visit = (path: string): void => {
        if (staticClosure.has(path)) return;
        staticClosure.add(path);
        for (const imported of outputs[path]?.imports ?? []) {
          if (imported.kind !== 'import-statement') continue;
          if (imported.external) externals.add(imported.path);
          else visit(imported.path);
        }
      };
      visit(entry ?? '');
      const staticInputs = [...staticClosure].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {}));
      expect(externals.has('zod')).toBe(false);
      expect(staticInputs.some((input) => input.endsWith('tracker/linear-tracker.ts'))).toBe(false);
      expect(staticInputs.some((input) => input.endsWith('memory-service/claude-mem-client.ts'))).toBe(false);
      // …and they are reachable lazily.
      const lazyInputs = Object.values(outputs).flatMap((output) => Object.keys(output.inputs));
      expect(lazyInputs.some((input) => input.endsWith('tracker/linear-tracker.ts'))).toBe(true);
      expect(lazyInputs.some((input) => input.endsWith('memory-service/claude-mem-client.ts'))).toBe(true);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
