import { statSync } from 'node:fs';

/**
 * What a transcript path is before a reader opens it: a non-empty regular file (`file`, with its
 * size), or why there is nothing to read. The path is untrusted input (a hook payload names it), so
 * every outcome is a value, never a throw.
 */
export type TranscriptFileState =
  | { readonly kind: 'file'; readonly path: string; readonly size: number }
  /** No path, or a path that is not a string. */
  | { readonly kind: 'no-path' }
  /** `ENOENT`: nothing at the path (yet, or any more). */
  | { readonly kind: 'missing'; readonly path: string; readonly reason: string }
  /** A directory, FIFO, socket or device: never opened (a FIFO would block a reader). */
  | { readonly kind: 'not-a-file'; readonly path: string }
  /** A regular file of zero bytes. */
  | { readonly kind: 'empty'; readonly path: string }
  /** `stat` failed otherwise (`EACCES` on a parent, `ENOTDIR`, `ELOOP`, `ENAMETOOLONG`…). */
  | { readonly kind: 'unreadable'; readonly path: string; readonly reason: string };

/**
 * `stat` a transcript path (following links, as the readers open it) and say what it is. The answer
 * can be stale by the time the file is opened: readers still map errors of the read itself
 * (`readTranscriptTurn` does).
 */
export function transcriptFileState(path: unknown): TranscriptFileState {
  if (typeof path !== 'string' || path.length === 0) return { kind: 'no-path' };
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return { kind: 'not-a-file', path };
    if (stats.size === 0) return { kind: 'empty', path };
    return { kind: 'file', path, size: stats.size };
  } catch (error) {
    return errnoCode(error) === 'ENOENT' ? { kind: 'missing', path, reason: errorReason(error) } : { kind: 'unreadable', path, reason: errorReason(error) };
  }
}

/** The `code` of a Node.js system error (`ENOENT`, `EACCES`…), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** An error's message, for a diagnostic (a thrown non-Error is stringified). */
export function errorReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
