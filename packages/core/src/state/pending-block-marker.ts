import { existsSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { writeFileSafelySync } from '../fs-safe/safe-write.ts';
import { sessionStatePath, type SessionStateLocation } from './state-files.ts';

/**
 * The cheap flag of a block waiting for its outcome: `<stateDir>/sessions/<agent>-<id>.json.outcome`
 * exists while the session state holds a pending block. The escape-hatch stop and a switched-off stop
 * check only its existence (one `stat`), so a session with nothing pending loads and reads nothing
 * more. The truth is the session state, read under the lock; the flag is best effort both ways (a
 * missing one leaves the block to the next turn end that reads the state, a stale one costs one read).
 */
export function pendingBlockMarkerPath(location: SessionStateLocation): string {
  return `${sessionStatePath(location)}.outcome`;
}

export function hasPendingBlockMarker(location: SessionStateLocation): boolean {
  try {
    return existsSync(pendingBlockMarkerPath(location));
  } catch {
    return false;
  }
}

/** Create the flag; a diagnostic when it cannot be (never through a planted link: see fs-safe). */
export function markPendingBlock(location: SessionStateLocation): string | undefined {
  try {
    writeFileSafelySync(location.stateDir, relative(location.stateDir, pendingBlockMarkerPath(location)), '', { rootKind: 'private', mode: 0o600 });
    return undefined;
  } catch (error) {
    return `block outcome: cannot create ${pendingBlockMarkerPath(location)}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function clearPendingBlockMarker(location: SessionStateLocation): void {
  try {
    rmSync(pendingBlockMarkerPath(location), { force: true });
  } catch {
    // A leftover flag costs the next such stop one state read; it is removed then.
  }
}
