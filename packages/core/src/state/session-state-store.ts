import type { SessionState } from './session-state.ts';
import { SessionStateSchema, emptySessionState } from './session-state.ts';
import {
  ensurePrivateDir,
  readSmallFile,
  sessionStatePath,
  sessionsDir,
  writePrivateFileAtomic,
  type SessionStateLocation,
} from './state-files.ts';

/** Default longest wait for another hook process holding the session lock. */
export const DEFAULT_LOCK_WAIT_MS = 3000;

/**
 * A lock older than this is considered abandoned (its process died) and is taken over. Updates hold
 * the lock for milliseconds; proper-lockfile refreshes the lock's mtime while it is held.
 */
const LOCK_STALE_MS = 5000;

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
  const path = sessionStatePath(location);
  const empty = emptySessionState(location.agent, location.sessionId);
  let text: string | undefined;
  try {
    text = await readSmallFile(path);
  } catch (error) {
    return { state: empty, diagnostics: [`state: cannot read ${path}: ${errorMessage(error)}`] };
  }
  if (text === undefined) return { state: empty, diagnostics: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { state: empty, diagnostics: [`state: ${path} is not valid JSON; starting afresh`] };
  }
  const parsed = SessionStateSchema.safeParse(json);
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
 * The lock is a `<file>.lock` directory (proper-lockfile: atomic `mkdir`, mtime kept fresh while
 * held, taken over when older than 5 s, so a crashed hook cannot block the session for long). The wait
 * is bounded by `lockWaitMs`; past it this rejects with a {@link StateLockTimeoutError}, and callers
 * fail open. The write is atomic (temp file + rename) with mode 0600 in a 0700 directory.
 *
 * `update` returns `{ state, value }`; `state: undefined` means "nothing to write".
 */
export async function updateSessionState<T>(
  location: SessionStateLocation,
  update: (state: SessionState) => { readonly state: SessionState | undefined; readonly value: T },
  options: UpdateSessionStateOptions = {},
): Promise<UpdateSessionStateResult<T>> {
  const path = sessionStatePath(location);
  await ensurePrivateDir(sessionsDir(location.stateDir));
  const waitMs = Math.max(0, options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
  const compromised: string[] = [];
  let release: () => Promise<void>;
  try {
    // Imported on first use: only a run that delivers a checkpoint takes the lock.
    const { default: lockfile } = await import('proper-lockfile');
    release = await lockfile.lock(path, {
      realpath: false,
      stale: LOCK_STALE_MS,
      // `retry` precomputes one timeout per allowed retry: 100,000 cost 20-33 ms per lock; with these
      // delays only ~600 attempts fit in the wait anyway, and maxRetryTime still bounds it.
      retries: { retries: 1000, factor: 1.3, minTimeout: 5, maxTimeout: 50, randomize: true, maxRetryTime: waitMs },
      // The default throws from a timer, which would crash the hook process.
      onCompromised: (error) => {
        compromised.push(`state: lock of ${path} was compromised: ${error.message}`);
      },
    });
  } catch (error) {
    throw new StateLockTimeoutError(path, waitMs, error);
  }
  try {
    const read = await readSessionState(location);
    const { state: next, value } = update(read.state);
    if (next !== undefined) await writePrivateFileAtomic(path, `${JSON.stringify(next)}\n`);
    return { state: next ?? read.state, value, written: next !== undefined, diagnostics: [...read.diagnostics, ...compromised] };
  } finally {
    await release().catch(() => {
      // Already released (compromised) or removed: nothing left to clean up.
    });
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
