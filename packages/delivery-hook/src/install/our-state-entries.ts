/**
 * The names this product creates directly in the state directory and in the code cache directory, for
 * `uninstall --purge` when the user chose that directory (an environment variable may name a directory
 * of their own, with their files beside ours). Keep in step with the writers: a name missing here is
 * left behind by a purge (the safe failure), never a user's file removed.
 *
 * State directory (`resolveStateDir`): `sessions/` (session state, locks, commit-gate flags), `switches/`,
 * `installs/` (install records and backups), `trust/`, `monitor/` (level marks), `handoff-sync/`,
 * `metrics/`, `estimates/`, `cache/` (tmux's Codex probe), `debug.log`, `notify.log`, `.last-prune`,
 * `tracker-outbox.json`, and the temp files of their atomic writes (`.<name>.<pid>.<hex>.tmp`).
 */
const STATE_ENTRIES: ReadonlySet<string> = new Set([
  'sessions',
  'switches',
  'installs',
  'trust',
  'monitor',
  'handoff-sync',
  'metrics',
  'estimates',
  'cache',
  'debug.log',
  'notify.log',
  '.last-prune',
  'tracker-outbox.json',
]);

/** core fs-safe's temp file next to `<name>`: `.<name>.<pid>.<8 hex>.tmp`. */
const SAFE_WRITE_TEMP = /^\.(.+)\.\d+\.[0-9a-f]{8}\.tmp$/;

/** A top-level entry of a user-chosen state directory that we created. */
export function isOurStateEntry(name: string): boolean {
  if (STATE_ENTRIES.has(name)) return true;
  const temp = SAFE_WRITE_TEMP.exec(name)?.[1];
  return temp !== undefined && STATE_ENTRIES.has(temp);
}

/** The launcher's cache files (`hook-<24 hex>.v8cache`) and their temp files (`….v8cache.<pid>.<random>.tmp`). */
const CODE_CACHE_FILE = /^hook-[0-9a-f]{24}\.v8cache(\.\d+\.[0-9a-z]+\.tmp)?$/;

/** An entry of a user-chosen code cache directory that we created. */
export function isOurCodeCacheEntry(name: string): boolean {
  return CODE_CACHE_FILE.test(name);
}
