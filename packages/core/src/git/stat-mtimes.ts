import { lstatSync } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/** Files stat'ed between two yields to the event loop. */
const CHUNK = 512;

/**
 * `lstat` every path and return its modification time (undefined when the path does not exist, cannot
 * be stat'ed, or is `undefined`: nothing to stat). A path is a string when its name is valid UTF-8 (the
 * cheaper call: no byte copy, no per-Buffer validation) and raw bytes otherwise, so such names are
 * still found.
 *
 * Synchronous `lstatSync` in chunks, yielding to the event loop between chunks, is deliberate: measured
 * on 5,000 files it takes ~15 ms, against ~40–80 ms for promise- or callback-based `lstat` with 16–64
 * in flight (the per-call threadpool and promise overhead dominates a syscall of a few microseconds).
 * Yielding keeps timers, abort signals and concurrent transcript reading responsive. Symlinks are not
 * followed: git tracks the link, not its target.
 */
export async function statMtimes(paths: readonly (string | Buffer | undefined)[], signal?: AbortSignal): Promise<(number | undefined)[]> {
  const result: (number | undefined)[] = new Array<number | undefined>(paths.length).fill(undefined);
  for (let start = 0; start < paths.length; start += CHUNK) {
    if (start > 0) {
      await yieldToLoop();
      if (signal?.aborted) break;
    }
    const end = Math.min(start + CHUNK, paths.length);
    for (let i = start; i < end; i++) {
      const path = paths[i];
      if (path === undefined) continue;
      try {
        result[i] = lstatSync(path, { throwIfNoEntry: false })?.mtimeMs;
      } catch {
        // EACCES on a parent directory, ENAMETOOLONG…: no mtime, the file is still reported.
      }
    }
  }
  return result;
}
