import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { classifyGeminiRecord } from './gemini-record.ts';

/** What the first bytes of a file say about its format. */
export type GeminiFileFormat =
  /** 0.61 JSON Lines; `sessionId` when the metadata line fits in the sniffed bytes. */
  | { readonly format: 'jsonl'; readonly sessionId?: string }
  /** A pretty-printed single JSON document: the older `session-*.json` format. */
  | { readonly format: 'legacy-json' }
  /** NUL bytes or invalid UTF-8. */
  | { readonly format: 'binary' }
  /** Only whitespace. */
  | { readonly format: 'blank' }
  /** Text that does not start with a JSON object. */
  | { readonly format: 'not-json' };

/** Bytes read from the start of a file to tell its format and find the session id. */
export const SNIFF_BYTES = 4096;

const BOM = '\uFEFF';

/**
 * Read the first `length` bytes of a file and classify its format by content (the extension is not
 * trusted: a `.json` may hold JSONL after a partial migration, and any path may be passed in).
 */
export function sniffGeminiFile(path: string, length: number, wholeFile: boolean): GeminiFileFormat {
  const bytes = Buffer.alloc(Math.max(0, length));
  const fd = openRegularFile(path);
  let got = 0;
  try {
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
    }
  } finally {
    closeSync(fd);
  }
  return classifyHead(bytes.subarray(0, got), wholeFile);
}

/** Classify the head of a file (exported for tests). */
export function classifyHead(head: Uint8Array, wholeFile: boolean): GeminiFileFormat {
  if (head.includes(0)) return { format: 'binary' };
  let text: string;
  try {
    // `stream: true` tolerates a multi-byte character cut at the end of the sniffed bytes.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return { format: 'binary' };
  }
  if (text.startsWith(BOM)) text = text.slice(1);
  const trimmed = text.trimStart();
  if (trimmed.length === 0) return wholeFile ? { format: 'blank' } : { format: 'not-json' };
  if (!trimmed.startsWith('{')) return { format: 'not-json' };
  const newline = trimmed.indexOf('\n');
  if (newline < 0) return { format: 'jsonl' };
  const firstLine = trimmed.slice(0, newline).trim();
  if (firstLine === '{') return { format: 'legacy-json' };
  try {
    const record = classifyGeminiRecord(JSON.parse(firstLine));
    return record.kind === 'metadata' ? { format: 'jsonl', sessionId: record.sessionId } : { format: 'jsonl' };
  } catch {
    return { format: 'jsonl' };
  }
}

/**
 * Open a file for reading, refusing anything but a regular file. Non-blocking, and checked on the
 * descriptor: a FIFO swapped in after the caller's `stat` would otherwise block the synchronous open
 * until a writer appears, wedging the hook beyond the reach of any timer. Throws on refusal.
 */
export function openRegularFile(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}
