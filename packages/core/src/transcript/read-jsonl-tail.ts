import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** What a visitor tells the reader after seeing one line. */
export type TailVisit = 'continue' | 'stop';

/** Where a line sits in the file. */
export interface TailLineInfo {
  /** Byte offset of the first byte of the line. */
  readonly offset: number;
  /** Length of the line in bytes, without the newline. */
  readonly byteLength: number;
  /** True for the last line of the file when it has no trailing newline (it may still be being written). */
  readonly unterminated: boolean;
}

/** Options of {@link readJsonlTail}. */
export interface JsonlTailOptions {
  /** Hard cap on bytes read from the end of the file. Nothing before `size - maxBytes` is ever read. */
  readonly maxBytes: number;
  /** Size of each backwards read. Default 64 KiB. */
  readonly chunkBytes?: number;
  /**
   * Called for each parsed line, newest first. Return `'stop'` once the turn boundary is seen: no
   * earlier byte is read.
   */
  readonly visit: (entry: unknown, info: TailLineInfo) => TailVisit;
  /**
   * Cheap pre-filter on the raw text of a line. Return true to skip the line without `JSON.parse`
   * (used to skip multi-kilobyte bookkeeping lines the adapter never needs).
   */
  readonly skipLine?: (line: string) => boolean;
  /**
   * Byte-level pre-filter, checked before a line is decoded: a line whose bytes contain none of these
   * strings (as UTF-8) is skipped (counted in `skippedLines`) without becoming a string. For readers that
   * need only lines with a given key (`'"usage"'`): most of a transcript's bytes are tool output,
   * and decoding them only to reject them was most of the cost of the monitor's tail read.
   */
  readonly mustContainAny?: readonly string[];
  /** Stops reading when aborted; the result then says `aborted: true`. */
  readonly signal?: AbortSignal;
  /**
   * Refuse a path whose last component is a symbolic link (`O_NOFOLLOW`: the open fails with
   * `ELOOP`, no race between a check and the open). For files named by untrusted input, such as a
   * subagent transcript found next to the session's.
   */
  readonly noFollow?: boolean;
  /**
   * Time (`Date.now()` clock, ms) past which no more line is parsed; the result then says
   * `aborted: true` and `deadlineReached: true`. Parsing is synchronous, so a timer-based `signal`
   * cannot fire during it: the clock is read every {@link DEADLINE_CHECK_LINES} lines and per chunk.
   */
  readonly deadlineAt?: number;
}

/** Lines handled between two reads of the clock when a deadline is set (a few microseconds each). */
export const DEADLINE_CHECK_LINES = 256;

/** Summary of a {@link readJsonlTail} run. */
export interface JsonlTailResult {
  /** True when a visitor returned `'stop'`. */
  readonly stopped: boolean;
  /**
   * True when every line back to the very first byte of the file was visited (never true when a
   * visitor stopped the read, even if the whole file happened to fit in one chunk).
   */
  readonly reachedStart: boolean;
  /** True when the byte cap ended the read before a boundary or the start of the file. */
  readonly capped: boolean;
  readonly aborted: boolean;
  /** True when `deadlineAt` passed before a boundary, the cap or the start of the file (`aborted` is true too). */
  readonly deadlineReached: boolean;
  readonly fileSize: number;
  readonly bytesRead: number;
  readonly linesVisited: number;
  /** Lines that were not valid JSON (corrupt, or a final line still being written). */
  readonly corruptLines: number;
  /** Lines skipped by `mustContainAny` or `skipLine`. */
  readonly skippedLines: number;
}

const NEWLINE = 0x0a;

/** Bytes a JSON text can start with after optional whitespace: `{ [ "`, a digit, `-`, `t f n`. */
const JSON_START = new Uint8Array(256);
for (const c of '{["-0123456789tfn') JSON_START[c.charCodeAt(0)] = 1;
const JSON_SPACE = new Uint8Array(256);
for (const c of ' \t\r\n') JSON_SPACE[c.charCodeAt(0)] = 1;

/** False when the line cannot be JSON (its first non-space byte starts no JSON value): no parse needed. */
function mayStartJson(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i] ?? 0;
    if (JSON_SPACE[byte] === 1) continue;
    return JSON_START[byte] === 1;
  }
  return true;
}

/** Thrown by {@link readJsonlTail} for a path that is a directory, FIFO, socket or device. */
export class NotARegularFileError extends Error {
  override readonly name = 'NotARegularFileError';
  readonly code = 'ENOTREG';
  readonly path: string;
  constructor(path: string) {
    super(`Not a regular file: ${path}`);
    this.path = path;
  }
}
const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * Read a JSON Lines file backwards from its end, one complete line at a time, newest first, and stop
 * as soon as the visitor finds the turn boundary or `maxBytes` have been read.
 *
 * Memory is bounded by `maxBytes + chunkBytes` whatever the file size: a partial line at the cap is
 * dropped (and `capped` set), so a single line longer than the cap is never held whole. Lines are split
 * on the newline byte before decoding, which is safe for UTF-8 because no multi-byte sequence contains
 * 0x0A. Corrupt lines are counted and skipped. Throws only for I/O errors opening or reading the file,
 * and {@link NotARegularFileError} for anything but a regular file (a FIFO is never waited on); callers
 * (readers) turn those into diagnostics.
 */
export function readJsonlTail(path: string, options: JsonlTailOptions): JsonlTailResult {
  const maxBytes = Math.max(0, Math.floor(options.maxBytes));
  const chunkBytes = Math.max(1, Math.floor(options.chunkBytes ?? 64 * 1024));
  // O_NONBLOCK: opening a FIFO for reading would otherwise block until a writer appears, wedging the
  // hook before any timer can fire. Only regular files are read.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new NotARegularFileError(path);
    const fileSize = stat.size;
    const floor = Math.max(0, fileSize - maxBytes);
    let position = fileSize;
    // Pieces (in file order) of the line whose start has not been read yet.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let atFileEnd = true;
    let linesVisited = 0;
    let corruptLines = 0;
    let skippedLines = 0;
    let stopped = false;
    let aborted = false;
    let deadlineReached = false;
    const deadlineAt = typeof options.deadlineAt === 'number' && !Number.isNaN(options.deadlineAt) ? options.deadlineAt : undefined;
    let untilClock = DEADLINE_CHECK_LINES;
    /** True (and the read ends as aborted) once the signal aborted or the deadline passed. */
    const outOfTime = (): boolean => {
      if (options.signal?.aborted) aborted = true;
      else if (deadlineAt !== undefined && Date.now() >= deadlineAt) aborted = deadlineReached = true;
      return aborted;
    };

    const needles = options.mustContainAny?.map((needle) => Buffer.from(needle, 'utf8'));
    const emit = (bytes: Buffer, offset: number, unterminated: boolean): boolean => {
      if (bytes.length === 0) return false;
      // Every line counts (skipped and corrupt ones too: a tail of tiny invalid lines is the costly case).
      untilClock -= 1;
      if (untilClock <= 0) {
        untilClock = DEADLINE_CHECK_LINES;
        if (deadlineAt !== undefined && outOfTime()) return true;
      }
      if (!mayStartJson(bytes)) {
        // Not JSON whatever follows: counted without paying for a thrown parse error (a tail of
        // tiny garbage lines is the costly case).
        corruptLines += 1;
        return false;
      }
      if (needles !== undefined && !needles.some((needle) => bytes.includes(needle))) {
        skippedLines += 1;
        return false;
      }
      const text = decoder.decode(bytes);
      if (options.skipLine?.(text)) {
        skippedLines += 1;
        return false;
      }
      let entry: unknown;
      try {
        entry = JSON.parse(text);
      } catch {
        corruptLines += 1;
        return false;
      }
      linesVisited += 1;
      return options.visit(entry, { offset, byteLength: bytes.length, unterminated }) === 'stop';
    };

    while (position > floor && !stopped) {
      if (outOfTime()) break;
      const size = Math.min(chunkBytes, position - floor);
      position -= size;
      const chunk = Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) {
        const n = readSync(fd, chunk, got, size - got, position + got);
        if (n === 0) break;
        got += n;
      }
      // Walk the chunk's newlines from the end: each newline closes the line that follows it.
      let end = got;
      // Buffer#lastIndexOf is a native memrchr: far faster than a JS byte loop on a cold start.
      for (let i = got > 0 ? chunk.lastIndexOf(NEWLINE, got - 1) : -1; i >= 0 && !stopped; i = i > 0 ? chunk.lastIndexOf(NEWLINE, i - 1) : -1) {
        const piece = chunk.subarray(i + 1, end);
        const lineBytes = pendingBytes === 0 ? piece : Buffer.concat([piece, ...pending], piece.length + pendingBytes);
        const unterminated = atFileEnd;
        atFileEnd = false;
        pending = [];
        pendingBytes = 0;
        stopped = emit(lineBytes, position + i + 1, unterminated && lineBytes.length > 0);
        end = i;
      }
      if (aborted) {
        // Out of time mid-chunk: the line that hit the clock was not visited.
        stopped = false;
        break;
      }
      if (stopped) break;
      // Bytes before the chunk's first newline belong to a line that started earlier.
      if (end > 0) {
        pending.unshift(chunk.subarray(0, end));
        pendingBytes += end;
      }
    }

    const reachedStart = position === 0 && !aborted;
    if (!stopped && !aborted && pendingBytes > 0 && !(deadlineAt !== undefined && outOfTime())) {
      // The pending bytes form a whole line when they start the file, or when the byte just before the
      // cap is a newline (one extra byte read, so a line that ends exactly at the cap is not lost).
      let complete = reachedStart;
      if (!complete && position > 0) {
        const probe = Buffer.alloc(1);
        complete = readSync(fd, probe, 0, 1, position - 1) === 1 && probe[0] === NEWLINE;
      }
      if (complete) stopped = emit(Buffer.concat(pending, pendingBytes), position, atFileEnd) && !aborted;
    }
    const capped = !stopped && !aborted && !reachedStart;
    return {
      stopped,
      reachedStart: reachedStart && !stopped,
      capped,
      aborted,
      deadlineReached,
      fileSize,
      bytesRead: fileSize - position,
      linesVisited,
      corruptLines,
      skippedLines,
    };
  } finally {
    closeSync(fd);
  }
}
