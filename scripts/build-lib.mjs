#!/usr/bin/env node
// Builds a library package: bundles src/index.ts (and any extra entry points given as arguments)
// to dist/ as ESM, keeping dependencies external. Type declarations are not emitted: inside the
// workspace, packages resolve each other's TypeScript sources directly.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), 'node:*'];
const entries = ['src/index.ts', ...process.argv.slice(2)];
// A clean dist/ every build: chunk names are content hashes, so old chunks would otherwise pile up
// and be published with the package. (This runs first in every package's build script; bins are
// bundled into dist/ after it.)
rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: entries,
  outdir: 'dist',
  outbase: 'src',
  bundle: true,
  // Splitting keeps dynamic import() lazy: without it esbuild hoists lazily loaded dependencies (zod,
  // jsonc-parser) to static imports, and every library user would pay for them on import.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
