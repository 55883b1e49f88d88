#!/usr/bin/env node
// Bundles the hook entry (src/cli.ts) and everything it imports into ONE file,
// dist/agent-checkpoint-hook.mjs, so agents run `node /abs/path/agent-checkpoint-hook.mjs <agent>` with
// no module resolution, no npx and no node_modules at hook time.
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
export const HOOK_BUNDLE = join(here, 'dist', 'agent-checkpoint-hook.mjs');

/**
 * zod's locale index (about 60 locales, re-exported as `z.locales`) is reachable from `zod/mini` but
 * never used: we word issues ourselves, and full zod (config validation) imports its English locale
 * directly, not through the index. Bundled, it is a quarter of the file and is parsed and evaluated at
 * every hook start; an empty module in its place measured −5 to −14% CPU on the escape hatch and up
 * to −8% on a full run (bench/, `docs/benchmarks.md`, variant `zod-locales-kept`).
 */
export const stubZodLocales = {
  name: 'stub-zod-locales',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'agent-checkpoint-empty' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'agent-checkpoint-empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

export async function buildHook(outfile = HOOK_BUNDLE) {
  await build({
    entryPoints: [join(here, 'src', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // ESM entries first: jsonc-parser's `main` is a UMD wrapper whose dynamic requires break when
    // bundled (the config parser would then fail to load and every config file would be ignored).
    mainFields: ['module', 'main'],
    // Smaller text parses faster at every hook start; names are kept for readable stack traces.
    minify: true,
    keepNames: true,
    legalComments: 'none',
    define: { __AGENT_CHECKPOINT_VERSION__: JSON.stringify(pkg.version) },
    plugins: [stubZodLocales],
    // Bundled CommonJS dependencies (proper-lockfile, write-file-atomic) expect require/__filename.
    banner: {
      js: [
        '#!/usr/bin/env node',
        "import { createRequire as __acCreateRequire } from 'node:module';",
        "import { fileURLToPath as __acFileURLToPath } from 'node:url';",
        'const require = __acCreateRequire(import.meta.url);',
        'const __filename = __acFileURLToPath(import.meta.url);',
      ].join('\n'),
    },
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o755);
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildHook(process.argv[2]);
}
