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

await build({
  entryPoints: [join(root, 'src', 'cli.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  legalComments: 'none',
  // Bundled CommonJS dependencies call require() for Node built-ins; ESM has no require.
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __acCreateRequire } from 'node:module';",
      'const require = __acCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
