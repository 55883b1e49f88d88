import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isErrnoCode } from './state-files.ts';

/**
 * The lock of `file`: a directory beside it, `<absolute file>.lock`. This is proper-lockfile's layout
 * and staleness rule (with `realpath: false`), which earlier versions of the hook and the tmux route
 * used, so a process of an older version and one of this version still exclude each other.
 */
export function lockDirectoryOf(file: string): string {
  return `${resolve(file)}.lock`;
}

/** The lock is held by another process (and is not stale). `code` as proper-lockfile's. */
export class LockHeldError extends Error {
  override readonly name = 'LockHeldError';
  readonly code = 'ELOCKED';
  readonly lockDirectory: string;
  constructor(lockDirectory: string) {
    super(`lock ${lockDirectory} is already being held`);
    this.lockDirectory = lockDirectory;
  }
}

/**
 * Take the lock of `file` in one synchronous attempt: `mkdir <file>.lock`, atomic on every local file
 * system. When the directory exists and its mtime is more than `staleMs` old, its holder is taken to
 * have died: the directory is removed and the lock taken once more. Throws {@link LockHeldError} when
 * the lock is held, any other error (an unwritable directory, a file in the lock's place) as it comes.
 * Returns the release, which removes the directory once (a directory already gone is no error).
 *
 * For critical sections that are synchronous from lock to release, as the session state's are: no
 * timer keeps the lock's mtime fresh (proper-lockfile's could not fire inside such a section either),
 * so a holder is only taken over when one section outlasts `staleMs`. Not loading proper-lockfile,
 * graceful-fs and signal-exit saves the hook their initialisation and `fs` wrappers on every block.
 */
export function lockSync(file: string, staleMs: number): () => void {
  const directory = lockDirectoryOf(file);
  acquire(directory, staleMs);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      rmdirSync(directory);
    } catch (error) {
      if (!isErrnoCode(error, 'ENOENT')) throw error;
    }
  };
}

function acquire(directory: string, staleMs: number): void {
  try {
    mkdirSync(directory);
    return;
  } catch (error) {
    if (!isErrnoCode(error, 'EEXIST')) throw error;
  }
  // The stale check runs once: a lock taken over and then found held again is simply held.
  if (staleMs <= 0) throw new LockHeldError(directory);
  let mtimeMs: number;
  try {
    mtimeMs = Math.trunc(statSync(directory).mtimeMs);
  } catch (error) {
    // Released between our mkdir and stat: take it.
    if (isErrnoCode(error, 'ENOENT')) return acquire(directory, 0);
    throw error;
  }
  if (mtimeMs >= Date.now() - staleMs) throw new LockHeldError(directory);
  try {
    rmdirSync(directory);
  } catch (error) {
    if (!isErrnoCode(error, 'ENOENT')) throw error;
  }
  acquire(directory, 0);
}
