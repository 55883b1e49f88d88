#!/usr/bin/env node
// Builds a package's library entry points for its published form: bundles src/index.ts (and any extra
// entry points given as arguments) to dist/ as ESM.
// - Runtime `dependencies` (and peers) stay external imports; everything else is inlined. A package
//   that declares none (the two delivery bins: their libraries are devDependencies, an install pulls
//   nothing) is therefore built self-contained.
// - Declarations (`.d.ts`) are emitted beside the JavaScript when publishConfig.exports has a `types`
//   condition (the library packages; see emit-declarations.mjs). Inside the workspace, packages
//   resolve each other's TypeScript sources directly and never read dist/.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { pruneUnreachableChunks } from './prune-unreachable-chunks.mjs';
import { emitDeclarations } from './emit-declarations.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const runtime = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
const external = [...runtime, 'node:*'];
const entries = ['src/index.ts', ...process.argv.slice(2)];
const selfContained = runtime.length === 0;
// A clean dist/ every build: chunk names are content hashes, so old chunks would otherwise pile up
// and be published with the package. (This runs first in every package's build script; bins are
// bundled into dist/ after it.)
rmSync('dist', { recursive: true, force: true });
const result = await build({
  entryPoints: entries,
  metafile: true,
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
  // ES module builds first: jsonc-parser's `main` is a UMD wrapper whose dynamic requires break
  // when bundled (only matters for what is inlined).
  mainFields: ['module', 'main'],
  // Inlined CommonJS libraries (fast-glob, write-file-atomic…) require() Node built-ins, which an ES
  // module cannot do without a require of its own.
  banner: selfContained ? { js: "import { createRequire as __acCreateRequire } from 'node:module';\nconst require = __acCreateRequire(import.meta.url);" } : {},
  // No maps for a self-contained build: they would carry every inlined library's sources (the bins,
  // built by their own scripts, ship without maps too).
  sourcemap: !selfContained,
  logLevel: 'warning',
});
const pruned = pruneUnreachableChunks(result.metafile, entries);
if (pruned.length > 0 && process.env.AGENT_CHECKPOINT_BUILD_VERBOSE) console.error(`build-lib: removed ${pruned.length} chunk(s) no entry loads: ${pruned.join(', ')}`);
if (hasTypesCondition(pkg.publishConfig?.exports)) emitDeclarations(process.cwd(), entries);

/** Whether an `exports` map (any nesting) names a `types` condition. */
function hasTypesCondition(exports) {
  if (exports === null || typeof exports !== 'object') return false;
  return Object.entries(exports).some(([key, value]) => key === 'types' || hasTypesCondition(value));
}
