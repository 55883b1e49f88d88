import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { NotARegularFileError } from '../transcript/read-jsonl-tail.ts';

/** A whole small file, as read by {@link readRegularFileSync}. */
export interface RegularFileContent {
  readonly text: string;
  readonly mtimeMs: number;
  readonly size: number;
}

/** A whole small file as bytes, as read by {@link readRegularFileBytesSync}. */
export interface RegularFileBytes {
  readonly bytes: Buffer;
  readonly mtimeMs: number;
  readonly size: number;
}

/**
 * Thrown by {@link readRegularFileSync} when the path's last component is a symbolic link: our state
 * files are never links, so one there was planted (the state directory's path is handed to the agent)
 * and reading through it would let its target's contents flow into a message or a decision.
 */
export class SymlinkRefusedError extends Error {
  override readonly name = 'SymlinkRefusedError';
  readonly code = 'ELOOP';
  readonly path: string;
  constructor(path: string) {
    super(`${path} is a symlink (not followed)`);
    this.path = path;
  }
}

/** Thrown by {@link readRegularFileSync} for a file larger than its cap (it is not one of ours). */
export class FileTooLargeError extends Error {
  override readonly name = 'FileTooLargeError';
  readonly code = 'EFBIG';
  readonly path: string;
  readonly maxBytes: number;
  constructor(path: string, maxBytes: number) {
    super(`${path} is larger than ${maxBytes} bytes`);
    this.path = path;
    this.maxBytes = maxBytes;
  }
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Read a whole regular file of at most `maxBytes` as UTF-8, never waiting on a special file.
 *
 * The last component is never followed (O_NOFOLLOW): a symlink there throws {@link SymlinkRefusedError}
 * (the kernel refuses it in the same `open(2)`, so nothing is added to the hot path). The file is
 * opened with O_NONBLOCK and checked on the open descriptor: a FIFO planted where one of
 * our files should be (or swapped in after a `stat`) would otherwise block `open(2)` until a writer
 * appears — on the main thread if synchronous, or in a thread-pool thread that keeps Node from
 * exiting, so no deadline timer could end the run. At most `maxBytes + 1` bytes are read, so a file
 * that grows while being read cannot exhaust memory.
 *
 * Synchronous on purpose: a local file of a few KiB costs microseconds, where each asynchronous step is
 * a thread-pool round trip (milliseconds on a loaded machine).
 *
 * @returns undefined when the file does not exist.
 * @throws NotARegularFileError for a directory, FIFO, socket or device; {@link SymlinkRefusedError} for
 *   a symlink (or a symlink loop); {@link FileTooLargeError} over the cap; other I/O errors (EACCES…)
 *   as they are.
 */
export function readRegularFileSync(path: string, maxBytes: number): RegularFileContent | undefined {
  const read = readRegularFileBytesSync(path, maxBytes);
  return read === undefined ? undefined : { text: read.bytes.toString('utf8'), mtimeMs: read.mtimeMs, size: read.size };
}

/**
 * {@link readRegularFileSync} as bytes, for a caller that must write back exactly what it read (or
 * tell bytes that are not UTF-8 from text). Same refusals and errors.
 */
export function readRegularFileBytesSync(path: string, maxBytes: number): RegularFileBytes | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT') return undefined;
    // Linux and macOS say ELOOP for O_NOFOLLOW on a link; FreeBSD says EMLINK.
    if (code === 'ELOOP' || code === 'EMLINK') throw new SymlinkRefusedError(path);
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new NotARegularFileError(path);
    if (info.size > maxBytes) throw new FileTooLargeError(path, maxBytes);
    // One byte more than fstat reported, to see the end of the file in the first read.
    let buffer = Buffer.allocUnsafe(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw new FileTooLargeError(path, maxBytes);
        // Grew since the fstat, still within the cap: read on, bounded.
        const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return { bytes: buffer.subarray(0, length), mtimeMs: info.mtimeMs, size: length };
  } finally {
    closeSync(fd);
  }
}

/**
 * Why {@link readRegularFileSync} failed, for a diagnostic that already names the path:
 * `not a regular file (a FIFO, socket or device)`, `a symlink (not followed)`, `larger than N bytes`, or
 * the I/O error's message.
 */
export function describeReadFailure(error: unknown): string {
  if (error instanceof NotARegularFileError) return 'not a regular file (a FIFO, socket or device)';
  if (error instanceof FileTooLargeError) return `larger than ${error.maxBytes} bytes`;
  if (error instanceof SymlinkRefusedError) return 'a symlink (not followed)';
  return error instanceof Error ? error.message : String(error);
}
