import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentId } from '../agent-id.ts';
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
 * Create a directory (and missing parents) readable by the user only. Existing directories keep
 * their mode: the user may have chosen it.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/**
 * Read a small file as UTF-8. Undefined when it does not exist; throws on other errors, when it is not
 * a regular file, and when it is larger than {@link MAX_STATE_FILE_BYTES} (a state file never grows
 * that big, so it is not ours).
 */
export async function readSmallFile(path: string): Promise<string | undefined> {
  let handle;
  try {
    // Non-blocking: a FIFO would hold a thread-pool thread in open(2) until a writer appears, and Node
    // cannot exit while it does — the hook's deadline would not end the run.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${path} is not a regular file`);
    const { size } = info;
    if (size > MAX_STATE_FILE_BYTES) throw new Error(`${path} is ${size} bytes, over the ${MAX_STATE_FILE_BYTES} cap`);
    return await handle.readFile({ encoding: 'utf8' });
  } finally {
    await handle.close();
  }
}

/**
 * Write a file atomically (temp file + fsync + rename) with mode 0600, so readers never see half a
 * file. The writer is imported on first use: most hook runs only read state.
 */
export async function writePrivateFileAtomic(path: string, content: string): Promise<void> {
  const { default: writeFileAtomic } = await import('write-file-atomic');
  await writeFileAtomic(path, content, { mode: 0o600 });
}

export function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
