import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BenchPaths } from './repo-root.ts';

const ESM_BANNER = [
  '#!/usr/bin/env node',
  "import { createRequire as __acCreateRequire } from 'node:module';",
  "import { fileURLToPath as __acFileURLToPath } from 'node:url';",
  'const require = __acCreateRequire(import.meta.url);',
  'const __filename = __acFileURLToPath(import.meta.url);',
].join('\n');

/**
 * The options of packages/delivery-hook/build-hook.mjs, replicated so variants can change one thing
 * at a time. {@link checkReplica} verifies that the replica still builds the shipped bytes.
 */
export function shippedOptions(paths: BenchPaths): BuildOptions {
  const pkg = JSON.parse(readFileSync(join(paths.root, 'packages', 'delivery-hook', 'package.json'), 'utf8')) as { version: string };
  return {
    entryPoints: [join(paths.root, 'packages', 'delivery-hook', 'src', 'cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    mainFields: ['module', 'main'],
    minify: true,
    keepNames: true,
    legalComments: 'none',
    define: { __AGENT_CHECKPOINT_VERSION__: JSON.stringify(pkg.version) },
    plugins: [stubZodLocales],
    banner: { js: ESM_BANNER },
    logLevel: 'silent',
  };
}

/** Replaces zod's locale index (≈60 locales, re-exported as `z.locales`, never used by our code) with an empty module. */
export const stubZodLocales: Plugin = {
  name: 'stub-zod-locales',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales-stub', namespace: 'ac-stub' } : undefined));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'ac-stub' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * Marks every module: its first statement pushes its path to `globalThis.__acBenchModules`, so a run
 * of the instrumented bundle lists exactly the modules it evaluated (bundled modules are lazily
 * initialised, so this is the real load set, not the bundle's contents).
 */
export function markEvaluatedModules(root: string): Plugin {
  return {
    name: 'mark-evaluated-modules',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.(ts|js|mjs|cjs)$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const rel = args.path.startsWith(root) ? args.path.slice(root.length + 1) : args.path;
        const loader = args.path.endsWith('.ts') ? 'ts' : 'js';
        const mark = `globalThis.__acBenchModules?.push(${JSON.stringify(rel)});\n`;
        // After a shebang and a "use strict" directive: a statement before the directive would turn a
        // strict CommonJS module sloppy.
        const prologue = /^(#![^\n]*\n)?(\s*(['"])use strict\3;?[^\n]*\n)?/.exec(source)?.[0] ?? '';
        return { contents: prologue + mark + source.slice(prologue.length), loader };
      });
    },
  };
}

/** Build into `outfile` (or `outdir` when splitting); returns the metafile. */
export async function buildVariant(options: BuildOptions): Promise<Metafile> {
  const target = options.outdir ?? dirname(options.outfile ?? '.');
  mkdirSync(target, { recursive: true });
  const result = await build({ ...options, metafile: true });
  if (options.outfile !== undefined) chmodSync(options.outfile, 0o755);
  return result.metafile;
}

/** Total bytes of a build's outputs. */
export function outputBytes(metafile: Metafile): number {
  return Object.values(metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
}

/** Bytes of the output per package (node_modules name, or the workspace package), KiB, largest first. */
export function bytesByPackage(metafile: Metafile): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, info] of Object.entries(output.inputs)) {
      const dep = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
      const workspace = /packages\/([^/]+)\//.exec(input)?.[1];
      const key = dep ?? (workspace === undefined ? input : `@agent-checkpoint/${workspace}`);
      totals[key] = (totals[key] ?? 0) + info.bytesInOutput;
    }
  }
  return Object.fromEntries(
    Object.entries(totals)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => [k, Math.round((v / 1024) * 10) / 10]),
  );
}

/** The number of source modules in a build. */
export function moduleCount(metafile: Metafile): number {
  return Object.keys(metafile.inputs).length;
}

/** Whether the replica of build-hook.mjs produces the shipped bundle byte for byte. */
export async function checkReplica(paths: BenchPaths, workDir: string): Promise<boolean> {
  const outfile = join(workDir, 'replica.mjs');
  await buildVariant({ ...shippedOptions(paths), outfile });
  return existsSync(paths.hookBundle) && readFileSync(outfile).equals(readFileSync(paths.hookBundle));
}

/**
 * A CommonJS bundle loaded through a tiny ESM launcher that keeps V8's code cache for it next to the
 * user's cache dir (here: next to the bundle), keyed by node version: the second run skips parsing
 * and compiling. Needs an entry without top-level await (proposals/hook-entry-script.ts).
 */
export function writeCodeCacheLauncher(bundleCjs: string, launcher: string): void {
  writeFileSync(
    launcher,
    `#!/usr/bin/env node
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
const file = ${JSON.stringify(bundleCjs)};
const cacheFile = file + '.' + process.version + '.v8cache';
const source = readFileSync(file, 'utf8').replace(/^#![^\\n]*/, '');
let cachedData;
try { cachedData = readFileSync(cacheFile); } catch {}
const script = new Script('(function (exports, require, module, __filename, __dirname) {' + source + '\\n})', { filename: file, cachedData });
if (cachedData === undefined || script.cachedDataRejected) {
  process.once('exit', () => { try { const t = cacheFile + '.' + process.pid; writeFileSync(t, script.createCachedData()); renameSync(t, cacheFile); } catch {} });
}
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
`,
  );
  chmodSync(launcher, 0o755);
}

/** Build a V8 startup snapshot of a CommonJS bundle; returns stderr of the build (warnings). */
export function buildSnapshot(bundleCjs: string, blob: string): string {
  const result = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', bundleCjs], { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`--build-snapshot failed: ${result.stderr}`);
  return result.stderr;
}

/** Size of a file or of every file under a directory. */
export function pathBytes(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  return readdirSync(path).reduce((sum, name) => sum + pathBytes(join(path, name)), 0);
}

export { ESM_BANNER };
