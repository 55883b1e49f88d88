#!/usr/bin/env node
// Bundles the notify program into one self-contained file, dist/agent-checkpoint-tmux.mjs, with every
// dependency inlined: Codex runs it as `node <file> …` on each turn, so it must not depend on a
// node_modules tree and should start fast.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = process.argv[2] ?? join(root, 'dist', 'agent-checkpoint-tmux.mjs');

/**
 * zod's locale index (about 60 locales, re-exported as `z.locales`) is reachable from `zod/mini` but
 * never used (issues are worded by us; full zod imports its English locale directly). An empty module
 * in its place: −23% of the bundle, about −11% CPU per notify start (bench/, docs/benchmarks.md).
 */
const stubZodLocales = {
  name: 'stub-zod-locales',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'agent-checkpoint-empty' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'agent-checkpoint-empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

await build({
  entryPoints: [join(root, 'src', 'cli.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Less text to parse at every notify start (1.6 MiB → 0.65 MiB); names kept for stack traces.
  minify: true,
  keepNames: true,
  // Prefer ES module builds: jsonc-parser's UMD build require()s its own files at run time, which a
  // bundle cannot satisfy (it lives in node_modules no more).
  mainFields: ['module', 'main'],
  legalComments: 'none',
  plugins: [stubZodLocales],
  // Bundled CommonJS dependencies (proper-lockfile, write-file-atomic…) use require() for Node
  // built-ins and __filename/__dirname, none of which exist in an ES module.
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __acCreateRequire } from 'node:module';",
      "import { fileURLToPath as __acFileURLToPath } from 'node:url';",
      "import { dirname as __acDirname } from 'node:path';",
      'const require = __acCreateRequire(import.meta.url);',
      'const __filename = __acFileURLToPath(import.meta.url);',
      'const __dirname = __acDirname(__filename);',
    ].join('\n'),
  },
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
