import { join, relative } from 'node:path';
import type { AgentId } from '../agent-id.ts';
import { ensureDirSafelySync, writeFileSafelySync } from '../fs-safe/safe-write.ts';
import { readRegularFileSync } from './read-regular-file.ts';
import { toSafeSessionId } from './safe-session-id.ts';

/** Largest state/switch file we are willing to read; anything bigger is treated as corrupt. */
export const MAX_STATE_FILE_BYTES = 256 * 1024;

/** Identifies one agent session's state. */
export interface SessionStateLocation {
  /** The state directory ({@link resolveStateDir}). */
  readonly stateDir: string;
  readonly agent: AgentId;
  /** The agent's raw session id; sanitized before it becomes part of a file name. */
  readonly sessionId: string;
}

export function sessionsDir(stateDir: string): string {
  return join(stateDir, 'sessions');
}

export function switchesDir(stateDir: string): string {
  return join(stateDir, 'switches');
}

/** `<stateDir>/sessions/<agent>-<safe session id>.json`. */
export function sessionStatePath(location: SessionStateLocation): string {
  return join(sessionsDir(location.stateDir), `${location.agent}-${toSafeSessionId(location.sessionId)}.json`);
}

/**
 * Create `<stateDir>/<relDir>` (and missing parents) readable by the user only, refusing a state
 * directory others can write to and any symlink on the way (see `fs-safe`). Existing directories keep
 * their mode: the user may have chosen it.
 */
export async function ensurePrivateDir(stateDir: string, relDir: string): Promise<void> {
  ensurePrivateDirSync(stateDir, relDir);
}

/** {@link ensurePrivateDir} without a thread-pool round trip, for the session lock's hot path. */
export function ensurePrivateDirSync(stateDir: string, relDir: string): void {
  ensureDirSafelySync(stateDir, relDir, { rootKind: 'private' });
}

/**
 * Read a small state or switch file as UTF-8. Undefined when it does not exist; throws on other
 * errors, `NotARegularFileError` when it is not a regular file (a FIFO is refused at once, never
 * waited on), and `FileTooLargeError` when it is larger than {@link MAX_STATE_FILE_BYTES} (a state file
 * never grows that big, so it is not ours). Synchronous inside, see {@link readRegularFileSync}.
 */
export async function readSmallFile(path: string): Promise<string | undefined> {
  return readSmallFileSync(path);
}

/** {@link readSmallFile} for callers that are synchronous themselves (the session lock's hot path). */
export function readSmallFileSync(path: string): string | undefined {
  return readRegularFileSync(path, MAX_STATE_FILE_BYTES)?.text;
}

/**
 * Write `path` (inside `stateDir`) atomically (temp file + fsync + rename) with mode 0600, so readers
 * never see half a file, and the new content survives a power loss (off switches are the user's
 * explicit choice). Never through a symlink, into a special file or a state directory others can
 * write to: those throw `UnsafePathError` (see `fs-safe`).
 */
export async function writePrivateFileAtomic(stateDir: string, path: string, content: string): Promise<void> {
  writeFileSafelySync(stateDir, relative(stateDir, path), content, { rootKind: 'private', mode: 0o600, fsync: true });
}

/**
 * Replace `path` (inside `stateDir`) atomically (temp file + rename, mode 0600) without fsync,
 * synchronously, for the session state written under the session lock. Same refusals as
 * {@link writePrivateFileAtomic}.
 *
 * Why no fsync: atomicity for readers and for the next lock holder comes from `rename(2)`, not from
 * fsync — a reader opens either the old inode or the complete new one. fsync only adds durability
 * across a power loss, and on a busy disk it costs tens of milliseconds per block (it waits for the
 * journal commit). The session state is a loop guard: if a crash ever left it empty or truncated, the
 * reader treats it as an empty state with a diagnostic, and the worst outcome is one extra block.
 */
export function replacePrivateFileSync(stateDir: string, path: string, content: string): void {
  writeFileSafelySync(stateDir, relative(stateDir, path), content, { rootKind: 'private', mode: 0o600 });
}

export function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
