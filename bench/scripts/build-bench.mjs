#!/usr/bin/env node
// Bundles the benchmark harness and its child-process runners into bench/.work/bin with the same
// esbuild settings as the shipped hook, so a runner that reads a transcript runs the code users run.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(bench, '.work', 'bin');
mkdirSync(outdir, { recursive: true });

const entries = ['run-benchmarks', 'check-results', 'tail-read-runner', 'naive-read', 'phase-runner', 'minimal-hook'];
await build({
  entryPoints: entries.map((name) => join(bench, 'src', `${name}.ts`)),
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  mainFields: ['module', 'main'],
  minify: true,
  keepNames: true,
  legalComments: 'none',
  // esbuild is the harness's own tool (bundle variants); it stays a normal import.
  external: ['esbuild'],
  banner: {
    js: [
      "import { createRequire as __acCreateRequire } from 'node:module';",
      "import { fileURLToPath as __acFileURLToPath } from 'node:url';",
      'const require = __acCreateRequire(import.meta.url);',
      'const __filename = __acFileURLToPath(import.meta.url);',
    ].join('\n'),
  },
  logLevel: 'warning',
});
