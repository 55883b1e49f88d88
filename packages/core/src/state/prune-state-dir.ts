import { readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { writeFileSafelySync } from '../fs-safe/safe-write.ts';
import { join } from 'node:path';
import { errorMessage } from './session-state-store.ts';
import { isErrnoCode, sessionsDir, switchesDir } from './state-files.ts';

/** Session files and per-session switches untouched for this long are removed. */
export const STATE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** Pruning runs at most this often (tracked by the mtime of `<stateDir>/.last-prune`). */
const PRUNE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** At most this many directory entries are examined per run, so one run stays cheap. */
const MAX_ENTRIES_PER_RUN = 5000;

/** Options of {@link pruneStateDir}. */
export interface PruneStateDirOptions {
  readonly stateDir: string;
  readonly now: Date;
  /** Ignore the once-a-day throttle (tests, `status --prune`). */
  readonly force?: boolean;
  readonly maxAgeMs?: number;
}

/**
 * Keep the state directory bounded: remove session state files (and leftover lock directories) and
 * per-session off switches not touched for 30 days. The global switch and the debug log are never
 * removed here. Runs at most once a day; returns diagnostics, never throws.
 *
 * Synchronous inside: it rides on the claim's write path, where the usual cost is one `stat` of the
 * marker, and a thread-pool round trip per step would cost more than the steps on a busy machine. A
 * due run examines at most 5,000 local entries.
 */
export async function pruneStateDir(options: PruneStateDirOptions): Promise<string[]> {
  return pruneStateDirSync(options);
}

function pruneStateDirSync(options: PruneStateDirOptions): string[] {
  const marker = join(options.stateDir, '.last-prune');
  const now = options.now.getTime();
  try {
    if (options.force !== true) {
      try {
        const { mtimeMs } = statSync(marker);
        if (now - mtimeMs < PRUNE_INTERVAL_MS && mtimeMs <= now) return [];
      } catch (error) {
        if (!isErrnoCode(error, 'ENOENT')) throw error;
      }
    }
    // Pruning never creates the state directory (a missing one is reported).
    statSync(options.stateDir);
    writeFileSafelySync(options.stateDir, '.last-prune', '', { rootKind: 'private', mode: 0o600 });
    utimesSync(marker, options.now, options.now);
    const cutoff = now - (options.maxAgeMs ?? STATE_MAX_AGE_MS);
    pruneEntries(sessionsDir(options.stateDir), cutoff, (name) => name.endsWith('.json') || name.endsWith('.json.lock') || name.endsWith('.json.gate'));
    pruneEntries(switchesDir(options.stateDir), cutoff, (name) => name.startsWith('session-') && name.endsWith('.off'));
    return [];
  } catch (error) {
    return [`state: pruning ${options.stateDir} failed: ${errorMessage(error)}`];
  }
}

function pruneEntries(dir: string, cutoffMs: number, eligible: (name: string) => boolean): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return;
    throw error;
  }
  for (const name of names.slice(0, MAX_ENTRIES_PER_RUN)) {
    if (!eligible(name)) continue;
    const path = join(dir, name);
    try {
      const { mtimeMs } = statSync(path);
      if (mtimeMs < cutoffMs) rmSync(path, { recursive: true, force: true });
    } catch (error) {
      if (!isErrnoCode(error, 'ENOENT')) throw error;
    }
  }
}
