import { fstatSync, closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import { appendSafelySync, readJsonlTail, writeFileSafelySync } from '@agent-checkpoint/core';
import type { z } from 'zod';

/** Where a bounded JSONL log lives: a path relative to the (private) state directory. */
export interface JsonlLogLocation {
  /** The state directory (`resolveStateDir()`); created private (0700) when missing. */
  readonly stateDir: string;
  /** Relative path of the log inside it (`metrics/<project key>.jsonl`). */
  readonly relPath: string;
}

/** Default cap of a log file: 1 MiB (thousands of records; the reports need far fewer). */
export const DEFAULT_LOG_MAX_BYTES = 1024 * 1024;

/** Longest line {@link appendJsonlLine} writes; our records are a few hundred bytes. */
export const MAX_LOG_LINE_BYTES = 16 * 1024;

/** What {@link appendJsonlLine} did. */
export interface AppendJsonlResult {
  readonly path: string;
  /** True when the file went over its cap and was cut down to its newest half. */
  readonly compacted: boolean;
}

/**
 * Append one record as a JSON line to a log in the state directory, keeping the file bounded: when it
 * grows past `maxBytes`, it is rewritten (atomically, temp file + rename) with its newest lines that
 * fit in half the cap. Each record is one `write(2)` with `O_APPEND`, so concurrent appends from
 * several hook processes never interleave within a line. A compaction that races an append can drop
 * that one line (the rename replaces the file the append went to): acceptable for statistics, and
 * rare (once per half a cap of appends).
 *
 * Writes go through core's safe helpers: no symlink, FIFO or hard link is ever written through.
 *
 * @throws RangeError for a record longer than {@link MAX_LOG_LINE_BYTES}; UnsafePathError and I/O
 *   errors as they are (callers report them on stderr; a hook never fails because of a log).
 */
export function appendJsonlLine(location: JsonlLogLocation, record: unknown, maxBytes: number = DEFAULT_LOG_MAX_BYTES): AppendJsonlResult {
  const line = `${JSON.stringify(record)}\n`;
  if (Buffer.byteLength(line, 'utf8') > MAX_LOG_LINE_BYTES) throw new RangeError(`log record longer than ${MAX_LOG_LINE_BYTES} bytes`);
  const path = appendSafelySync(location.stateDir, location.relPath, line, { rootKind: 'private', mode: 0o600 });
  if (fileSize(path) <= maxBytes) return { path, compacted: false };
  const keep: string[] = [];
  readJsonlTail(path, {
    maxBytes: Math.floor(maxBytes / 2),
    noFollow: true,
    visit: (entry) => {
      keep.push(JSON.stringify(entry));
      return 'continue';
    },
  });
  keep.reverse();
  writeFileSafelySync(location.stateDir, location.relPath, keep.length > 0 ? `${keep.join('\n')}\n` : '', { rootKind: 'private', mode: 0o600 });
  return { path, compacted: true };
}

/** What {@link readJsonlLog} found. Never throws: problems are reported here. */
export interface ReadJsonlLogResult<T> {
  /** Valid records, oldest first. */
  readonly records: T[];
  /** Lines that were not JSON or failed the schema (untrusted file: skipped, counted). */
  readonly skippedLines: number;
  /** True when the file was larger than the read cap and only its newest part was read. */
  readonly truncated: boolean;
  /** Why the file could not be read at all (a symlink, a FIFO, an I/O error); records are then empty. */
  readonly problem?: string;
}

/**
 * Read a log written by {@link appendJsonlLine}: at most its last `maxBytes` (a file grown huge by
 * someone else is read only at its end), each line JSON-parsed and validated with `schema`; bad lines
 * are skipped and counted. A missing file is an empty log. The last component is never followed.
 */
export function readJsonlLog<T>(location: JsonlLogLocation, schema: z.ZodType<T>, maxBytes: number = DEFAULT_LOG_MAX_BYTES): ReadJsonlLogResult<T> {
  const path = join(location.stateDir, location.relPath);
  const records: T[] = [];
  let invalid = 0;
  try {
    const result = readJsonlTail(path, {
      maxBytes,
      noFollow: true,
      visit: (entry) => {
        const parsed = schema.safeParse(entry);
        if (parsed.success) records.push(parsed.data);
        else invalid += 1;
        return 'continue';
      },
    });
    records.reverse();
    return { records, skippedLines: invalid + result.corruptLines, truncated: result.capped };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skippedLines: 0, truncated: false };
    return { records: [], skippedLines: 0, truncated: false, problem: `${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function fileSize(path: string): number {
  // O_NOFOLLOW|O_NONBLOCK as everywhere: the append just checked this is a regular file.
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}
