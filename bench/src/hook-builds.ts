import type { BuildOptions, Metafile, Plugin } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchPaths } from './repo-root.ts';

/**
 * The exports of packages/delivery-hook/build-hook.mjs that the bench uses. Imported at run time from
 * its own path, never bundled: the script locates the hook's sources from its own `import.meta.url`.
 */
export interface BuildHookModule {
  /** File name of the main bundle next to the launcher. */
  readonly HOOK_MAIN_NAME: string;
  /** The plugin that replaces zod's unused locale index with an empty module. */
  readonly stubZodLocales: Plugin;
  /** The plugin that makes every bundled module record its path in `globalThis.__acModules` when it is initialised. */
  markEvaluatedModules(root?: string): Plugin;
  /** esbuild options of the main bundle, written to `outfile`. */
  mainBundleOptions(outfile: string): BuildOptions;
  /** Build main bundle + launcher (at `outfile`) + legacy shim into `dirname(outfile)`; the launcher carries the main bundle's build id. */
  buildHook(outfile: string, mainOptions?: (outfile: string) => BuildOptions): Promise<string>;
}

const loaded = new Map<string, Promise<BuildHookModule>>();

/** The delivery-hook build script's exports (loaded once per path). */
export function loadBuildHook(paths: BenchPaths): Promise<BuildHookModule> {
  let module = loaded.get(paths.buildHookScript);
  if (module === undefined) {
    module = import(pathToFileURL(paths.buildHookScript).href) as Promise<BuildHookModule>;
    loaded.set(paths.buildHookScript, module);
  }
  return module;
}

/** A hook bin as users get it: the launcher, the main bundle it runs, and the main bundle's build metadata. */
export interface HookBin {
  /** The launcher (`node <launcher> <agent>`). */
  readonly launcher: string;
  readonly main: string;
  /** esbuild metafile of the main bundle (contents by package, module count). */
  readonly metafile: Metafile;
  readonly mainBytes: number;
  readonly launcherBytes: number;
  /** What a hook start reads: main bundle + launcher. */
  readonly bytes: number;
}

/**
 * Build the hook bin into `dir` with build-hook.mjs's own `buildHook` (so the launcher, its build id and
 * the main options are the shipped ones), optionally changing the main bundle's esbuild options.
 */
export async function buildHookBin(paths: BenchPaths, dir: string, change: (options: BuildOptions) => BuildOptions = (o) => o): Promise<HookBin> {
  const hook = await loadBuildHook(paths);
  let metafile: Metafile | undefined;
  const capture: Plugin = {
    name: 'bench-capture-metafile',
    setup(pluginBuild) {
      pluginBuild.onEnd((result) => {
        metafile = result.metafile;
      });
    },
  };
  const launcher = await hook.buildHook(join(dir, 'agent-checkpoint-hook.cjs'), (outfile) => {
    const options = change(hook.mainBundleOptions(outfile));
    return { ...options, metafile: true, logLevel: 'silent', plugins: [...(options.plugins ?? []), capture] };
  });
  if (metafile === undefined) throw new Error(`no metafile from the main bundle build in ${dir}`);
  const main = join(dir, hook.HOOK_MAIN_NAME);
  const mainBytes = statSync(main).size;
  const launcherBytes = statSync(launcher).size;
  return { launcher, main, metafile, mainBytes, launcherBytes, bytes: mainBytes + launcherBytes };
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

/**
 * Whether `replica` (build-hook.mjs's `buildHook`, run now) is the bin the benchmarks measure (dist/)
 * byte for byte — main bundle and launcher. When not, dist/ is stale against the sources and the
 * variants (built from the sources) are not comparable with it: run `pnpm build` first.
 */
export function replicaMatchesShipped(replica: HookBin, paths: BenchPaths): boolean {
  const same = (a: string, b: string): boolean => existsSync(b) && readFileSync(a).equals(readFileSync(b));
  return same(replica.main, paths.hookMain) && same(replica.launcher, paths.hookBundle);
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
