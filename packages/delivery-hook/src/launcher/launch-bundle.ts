import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script, constants as vmConstants } from 'node:vm';
import { openCodeCacheChannel, type CodeCacheStatus } from './code-cache-channel.ts';
import { codeCacheFileName, isTrustedCacheDir, readCodeCache, writeCodeCache, type CodeCacheEntry } from './code-cache-file.ts';

/** Options of {@link launchBundle}. */
export interface LaunchBundleOptions {
  /** Absolute path of the CommonJS bundle to run. */
  readonly bundlePath: string;
  /** Digest of the bundle fixed at build time; part of the cache key. */
  readonly buildId: string;
  /** Where the code cache lives; `undefined` = no cache. */
  readonly cacheDir: string | undefined;
}

// The CommonJS wrapper plus `import.meta.url`, which the bundle's ESM sources use (esbuild is told to
// read it from this parameter).
const HEAD = '(function (exports, require, module, __filename, __dirname, __agentCheckpointImportMetaUrl) {';
const TAIL = '\n})';

/**
 * Run the hook bundle with a V8 code cache. Compiling the ~0.7 MiB bundle is the largest single cost
 * of a hook start (about 55 ms of a 150–250 ms run measured in docs/benchmarks.md §4); with a cache V8
 * deserializes bytecode instead. The cache is made with `createCachedData()` when the process exits,
 * so it holds every function the run compiled — not just the eagerly compiled top level that a
 * compile-time cache (Node's `module.enableCompileCache()`, `v8-compile-cache`) would keep, which is
 * little here because esbuild wraps each module in a lazily compiled function.
 *
 * Never throws for cache trouble: a missing, torn, foreign or refused cache means compiling from
 * source, exactly as without one.
 */
export function launchBundle(options: LaunchBundleOptions): void {
  const { bundlePath, cacheDir } = options;
  const source = readFileSync(bundlePath, 'utf8');
  // A directory that exists but is not ours alone is not used at all — not even written to at exit,
  // which would cost createCachedData() on every run for a file that is then refused.
  const trusted = cacheDir !== undefined && isTrustedCacheDir(cacheDir);
  const usable = cacheDir !== undefined && (trusted || !existsSync(cacheDir));
  const file = usable
    ? join(cacheDir, codeCacheFileName(options.buildId, { version: process.version, arch: process.arch, v8: `${process.versions.v8}\0${process.execArgv.join('\0')}` }))
    : undefined;
  const cached: CodeCacheEntry | undefined = file !== undefined && trusted ? readCodeCache(file) : undefined;

  const script = new Script(HEAD + source + TAIL, {
    filename: bundlePath,
    ...(cached === undefined ? {} : { cachedData: cached.data }),
    // The Codex reader's optional `import('node:sqlite')`; absent before Node 20.12, where that
    // import then fails as it does on any runtime without the module (the reader has a fallback).
    ...(vmConstants?.USE_MAIN_CONTEXT_DEFAULT_LOADER === undefined ? {} : { importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER }),
  });
  const status: CodeCacheStatus = file === undefined ? 'off' : cached === undefined ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'accepted';
  const channel = openCodeCacheChannel(status);

  if (file !== undefined && cacheDir !== undefined) {
    process.once('exit', () => {
      // Rewrite only when this run adds something: no usable cache, or it reached a deeper path.
      if (status === 'accepted' && cached !== undefined && cached.coverage >= channel.coverage) return;
      writeCodeCache(cacheDir, file, { coverage: channel.coverage, data: script.createCachedData() });
    });
  }

  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
    importMetaUrl: string,
  ) => void;
  const module = { exports: {} };
  wrapper.call(module.exports, module.exports, createRequire(bundlePath), module, bundlePath, dirname(bundlePath), pathToFileURL(bundlePath).href);
}
