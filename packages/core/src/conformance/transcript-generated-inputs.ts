import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Inputs the transcript conformance suite generates on disk: bad files, cut and shuffled copies of
 * real fixtures, and large files for the bounded-read check. Everything is written under one temp
 * directory that {@link TempFiles.cleanup} removes.
 */
export interface TempFiles {
  readonly dir: string;
  /** Write `content` to a new file in the temp dir (a fresh name each time) and return its path. */
  write(name: string, content: string | Uint8Array): string;
  /**
   * Write `content` to exactly `name` in the temp dir, replacing what was there, and return its path.
   * For the thousands of cut copies a test reads one after the other: one file, not thousands.
   */
  put(name: string, content: string | Uint8Array): string;
  /** Path in the temp dir, not created. */
  path(name: string): string;
  cleanup(): void;
}

/** Create a temp directory for one test file's generated inputs. */
export function createTempFiles(prefix: string): TempFiles {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  let counter = 0;
  return {
    dir,
    write(name, content) {
      counter += 1;
      const file = join(dir, `${String(counter).padStart(4, '0')}-${safeName(name)}`);
      writeFileSync(file, content);
      return file;
    },
    put(name, content) {
      const file = join(dir, safeName(name));
      writeFileSync(file, content);
      return file;
    },
    path(name) {
      return join(dir, name);
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** Deterministic pseudo-random bytes (xorshift32), including NULs and invalid UTF-8. */
export function garbageBytes(length: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = state & 0xff;
  }
  return out;
}

/** Byte offsets just after each newline: the ends of the complete lines of `bytes`. */
export function lineEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  let from = 0;
  for (;;) {
    const at = bytes.indexOf(0x0a, from);
    if (at < 0) break;
    ends.push(at + 1);
    from = at + 1;
  }
  return ends;
}

/** The lines of `bytes`, each with its newline (a final unterminated line keeps none). */
export function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (const end of lineEnds(bytes)) {
    lines.push(bytes.subarray(start, end));
    start = end;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** Concatenate byte arrays. */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.byteLength)));
}

/**
 * Write `content` repeated until the file holds at least `minBytes` (whole copies only, so the file
 * ends exactly like the original). Returns the file size.
 */
export function writeRepeated(path: string, content: Uint8Array, minBytes: number): number {
  if (content.length === 0) throw new Error('cannot repeat empty content');
  const fd = openSync(path, 'w');
  let size = 0;
  try {
    // Write in ~1 MiB blocks rather than one syscall per (small) copy.
    const copiesPerBlock = Math.max(1, Math.floor((1024 * 1024) / content.length));
    const block = Buffer.concat(Array.from({ length: copiesPerBlock }, () => Buffer.from(content)));
    while (size + block.length <= minBytes) {
      writeSync(fd, block);
      size += block.length;
    }
    while (size < minBytes) {
      writeSync(fd, content);
      size += content.length;
    }
  } finally {
    closeSync(fd);
  }
  return size;
}
