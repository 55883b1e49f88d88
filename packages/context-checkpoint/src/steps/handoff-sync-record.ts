import { createHash } from 'node:crypto';
import { closeSync, constants, openSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDirSafelySync, errorMessage } from '@agent-checkpoint/core';

/** Directory of the sent-records, in the hook's private state directory. */
export const HANDOFF_SYNC_DIR = 'handoff-sync';

/** Records older than this are removed when the directory grows past {@link PRUNE_ABOVE} entries. */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_ABOVE = 200;

/** What a handoff was announced to: one record per service. */
export type HandoffSyncService = 'tracker' | 'memory';

/** The identity of one announcement: the same key is announced once. */
export interface HandoffSyncKey {
  readonly service: HandoffSyncService;
  readonly sessionId?: string;
  readonly level: 'L2' | 'L3';
  /** Repo-relative path of the handoff document. */
  readonly handoffPath: string;
}

/** Result of {@link claimHandoffSync}: go ahead, already done by an earlier run, or no record possible (go ahead, with a note). */
export type HandoffSyncClaim = { readonly kind: 'claimed' } | { readonly kind: 'already' } | { readonly kind: 'unrecorded'; readonly note: string };

/**
 * Claim the announcement of a handoff to a service, once per (service, session, level, handoff path):
 * a marker file created with `O_EXCL` under `<stateDir>/handoff-sync/`, so two hook runs of the same
 * checkpoint (the monitor and the Stop route, a retried hook) cannot both post it, even at the same
 * moment. Claimed before the send: a send that then fails for a passing reason is the tracker
 * outbox's to retry, not this record's. When no record can be written the caller still sends (a
 * possible duplicate is better than a lost update) and reports the note. Never throws.
 */
export function claimHandoffSync(stateDir: string, key: HandoffSyncKey, now: Date): HandoffSyncClaim {
  let dir: string;
  try {
    dir = ensureDirSafelySync(stateDir, HANDOFF_SYNC_DIR, { rootKind: 'private' });
  } catch (error) {
    return { kind: 'unrecorded', note: `cannot record the announcement: ${errorMessage(error)}` };
  }
  const file = join(dir, `${digest(key)}.json`);
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { kind: 'already' };
    return { kind: 'unrecorded', note: `cannot record the announcement: ${errorMessage(error)}` };
  }
  try {
    writeSync(fd, `${JSON.stringify({ ...key, at: now.toISOString() })}\n`);
  } catch {
    // The marker's existence is the record; its text is for people reading the directory.
  } finally {
    closeSync(fd);
  }
  prune(dir, now);
  return { kind: 'claimed' };
}

function digest(key: HandoffSyncKey): string {
  return createHash('sha256').update([key.service, key.sessionId ?? '', key.level, key.handoffPath].join('\0'), 'utf8').digest('hex').slice(0, 32);
}

/** Keep the directory small: past {@link PRUNE_ABOVE} entries, drop records older than {@link KEEP_MS}. Best effort. */
function prune(dir: string, now: Date): void {
  try {
    const names = readdirSync(dir);
    if (names.length <= PRUNE_ABOVE) return;
    for (const name of names) {
      const path = join(dir, name);
      if (now.getTime() - statSync(path).mtimeMs > KEEP_MS) unlinkSync(path);
    }
  } catch {
    // A record left behind costs nothing.
  }
}
