import type { CodeCacheCoverage } from './code-cache-file.ts';

/** What became of the compiled-code cache in this process (reported in the debug log). */
export type CodeCacheStatus =
  /** V8 used the cache: the bundle was not compiled from source. */
  | 'accepted'
  /** A cache was there but V8 refused it (another Node build or V8 flags); it is rewritten at exit. */
  | 'rejected'
  /** No cache yet (first run of this build on this Node); one is written at exit. */
  | 'missing'
  /** Switched off, no usable cache directory, or not started through the launcher (tests, tsx). */
  | 'off';

/**
 * The launcher and the bundle it runs share this object through a registered symbol (the bundle is
 * a separate script, not a module the launcher imports). The bundle raises `coverage` as it reaches
 * deeper paths so the launcher knows whether a cache written now would hold more than the one it has.
 */
export interface CodeCacheChannel {
  readonly status: CodeCacheStatus;
  coverage: CodeCacheCoverage;
}

const KEY = Symbol.for('agent-checkpoint.code-cache');

/** Install the channel (launcher side). */
export function openCodeCacheChannel(status: CodeCacheStatus): CodeCacheChannel {
  const channel: CodeCacheChannel = { status, coverage: 0 };
  (globalThis as Record<symbol, unknown>)[KEY] = channel;
  return channel;
}

/** The channel, when the bundle was started by the launcher. */
export function codeCacheChannel(): CodeCacheChannel | undefined {
  const value = (globalThis as Record<symbol, unknown>)[KEY];
  return typeof value === 'object' && value !== null ? (value as CodeCacheChannel) : undefined;
}

/**
 * Record that this run reached a deeper path: 1 = the checkpoint was computed (config, git,
 * transcript, engine), 2 = it was delivered (message, loop-guard claim). A no-op outside the launcher.
 */
export function markCodeCoverage(level: CodeCacheCoverage): void {
  const channel = codeCacheChannel();
  if (channel !== undefined && channel.coverage < level) channel.coverage = level;
}
