import { relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { lockSync } from './directory-lock.ts';
import { describeReadFailure } from './read-regular-file.ts';
import type { SessionState } from './session-state.ts';
import { SessionStateSchema, emptySessionState, migrateSessionStateJson } from './session-state.ts';
import {
  ensurePrivateDirSync,
  isErrnoCode,
  readSmallFileSync,
  replacePrivateFileSync,
  sessionStatePath,
  sessionsDir,
  type SessionStateLocation,
} from './state-files.ts';

/** Default longest wait for another hook process holding the session lock. */
export const DEFAULT_LOCK_WAIT_MS = 3000;

/**
 * A lock older than this is considered abandoned (its process died) and is taken over. Updates hold
 * the lock for milliseconds, in one synchronous section.
 */
const LOCK_STALE_MS = 5000;

/** Waits between attempts on a held lock: 5 ms growing ×1.3 to 50 ms, each jittered up to ×2. */
const LOCK_RETRY_MIN_MS = 5;
const LOCK_RETRY_MAX_MS = 50;
const LOCK_RETRY_FACTOR = 1.3;

/** A session state as read from disk, with notes on anything that was wrong with the file. */
export interface ReadSessionStateResult {
  readonly state: SessionState;
  /** Empty when the file was absent or fine. */
  readonly diagnostics: readonly string[];
}

/**
 * Read a session's state without locking (for early checks and `status`). A missing file is an empty
 * state; a corrupt, oversized or foreign file is an empty state plus a diagnostic — never an error,
 * so a damaged state file cannot wedge a hook. It is replaced on the next update.
 */
export async function readSessionState(location: SessionStateLocation): Promise<ReadSessionStateResult> {
  return readSessionStateSync(location);
}

/**
 * {@link readSessionState} in one synchronous step (a few microseconds of local syscalls, where each
 * asynchronous step would be a thread-pool round trip: milliseconds when the machine is busy).
 */
function readSessionStateSync(location: SessionStateLocation): ReadSessionStateResult {
  const path = sessionStatePath(location);
  const empty = emptySessionState(location.agent, location.sessionId);
  let text: string | undefined;
  try {
    text = readSmallFileSync(path);
  } catch (error) {
    return { state: empty, diagnostics: [`state: cannot read ${path}: ${describeReadFailure(error)}`] };
  }
  if (text === undefined) return { state: empty, diagnostics: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { state: empty, diagnostics: [`state: ${path} is not valid JSON; starting afresh`] };
  }
  const parsed = SessionStateSchema.safeParse(migrateSessionStateJson(json));
  if (!parsed.success) {
    return { state: empty, diagnostics: [`state: ${path} has an unexpected shape; starting afresh`] };
  }
  if (parsed.data.agent !== location.agent) {
    return { state: empty, diagnostics: [`state: ${path} belongs to agent ${parsed.data.agent}; starting afresh`] };
  }
  return { state: parsed.data as SessionState, diagnostics: [] };
}

/** Options of {@link updateSessionState}. */
export interface UpdateSessionStateOptions {
  /** Longest wait for the lock. Default {@link DEFAULT_LOCK_WAIT_MS}. */
  readonly lockWaitMs?: number;
}

/** Result of {@link updateSessionState}. */
export interface UpdateSessionStateResult<T> {
  /** The state after the update (the state read, when nothing was written). */
  readonly state: SessionState;
  /** What the update function returned alongside its new state. */
  readonly value: T;
  readonly written: boolean;
  readonly diagnostics: readonly string[];
}

/**
 * Read-modify-write a session's state under an inter-process lock, so concurrent hooks of the same
 * session see each other's updates (read, decide and write happen as one step).
 *
 * The lock is a `<file>.lock` directory ({@link lockSync}: atomic `mkdir`, proper-lockfile's layout,
 * taken over when older than 5 s, so a crashed hook cannot block the session for long). The wait
 * is bounded by `lockWaitMs`; past it this rejects with a {@link StateLockTimeoutError}, and callers
 * fail open. The write is atomic (temp file + rename, no fsync: see {@link replacePrivateFileSync})
 * with mode 0600 in a 0700 directory.
 *
 * Everything under the lock is synchronous: an uncontended update is a dozen local syscalls with no
 * thread-pool round trip, which on a loaded machine is what made the update cost tens of milliseconds.
 * Only the wait for a held lock yields to the event loop.
 *
 * `update` returns `{ state, value }`; `state: undefined` means "nothing to write".
 */
export async function updateSessionState<T>(
  location: SessionStateLocation,
  update: (state: SessionState) => { readonly state: SessionState | undefined; readonly value: T },
  options: UpdateSessionStateOptions = {},
): Promise<UpdateSessionStateResult<T>> {
  const path = sessionStatePath(location);
  ensurePrivateDirSync(location.stateDir, relative(location.stateDir, sessionsDir(location.stateDir)));
  const waitMs = Math.max(0, options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
  let release: () => void;
  try {
    release = await lockWithin(path, waitMs);
  } catch (error) {
    throw new StateLockTimeoutError(path, waitMs, error);
  }
  try {
    const read = readSessionStateSync(location);
    const { state: next, value } = update(read.state);
    if (next !== undefined) replacePrivateFileSync(location.stateDir, path, `${JSON.stringify(next)}\n`);
    return { state: next ?? read.state, value, written: next !== undefined, diagnostics: read.diagnostics };
  } finally {
    try {
      release();
    } catch {
      // Removed by someone else already: nothing left to clean up.
    }
  }
}

/**
 * Take the session lock, waiting at most `waitMs` for another holder. Each attempt is one synchronous
 * {@link lockSync} (mkdir, plus the stale check when the lock exists); between attempts of a held lock
 * it sleeps 5-50 ms with jitter. Errors other than "held" (an unwritable directory, a file where the
 * lock directory should be) are not worth waiting for and are thrown at once.
 */
async function lockWithin(path: string, waitMs: number): Promise<() => void> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return lockSync(path, LOCK_STALE_MS);
    } catch (error) {
      const remaining = deadline - Date.now();
      if (!isErrnoCode(error, 'ELOCKED') || remaining <= 0) throw error;
      const delay = Math.min(LOCK_RETRY_MAX_MS, LOCK_RETRY_MIN_MS * LOCK_RETRY_FACTOR ** attempt * (1 + Math.random()));
      await sleep(Math.min(delay, remaining));
    }
  }
}

/** The session lock could not be taken in time (or at all). */
export class StateLockTimeoutError extends Error {
  override readonly name = 'StateLockTimeoutError';
  readonly path: string;
  readonly waitMs: number;
  constructor(path: string, waitMs: number, cause: unknown) {
    super(`state: could not lock ${path} within ${waitMs} ms: ${errorMessage(cause)}`, { cause });
    this.path = path;
    this.waitMs = waitMs;
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
