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
  // Prefer ES module builds: jsonc-parser's UMD build require()s its own files at run time, which a
  // bundle cannot satisfy (it lives in node_modules no more).
  mainFields: ['module', 'main'],
  legalComments: 'none',
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
