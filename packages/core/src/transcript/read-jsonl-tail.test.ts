import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonlTail } from './read-jsonl-tail.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-tail-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(content: string | Buffer): string {
  const path = join(dir, 'f.jsonl');
  writeFileSync(path, content);
  return path;
}

function collect(path: string, maxBytes: number, chunkBytes = 7, stopAt?: (e: unknown) => boolean) {
  const seen: unknown[] = [];
  const result = readJsonlTail(path, {
    maxBytes,
    chunkBytes,
    visit: (entry) => {
      seen.push(entry);
      return stopAt?.(entry) ? 'stop' : 'continue';
    },
  });
  return { seen, result };
}

describe('readJsonlTail', () => {
  it('yields every line newest first when the file fits', () => {
    const lines = [1, 2, 3, 4, 5].map((n) => JSON.stringify({ n, pad: 'x'.repeat(n * 3) }));
    const { seen, result } = collect(file(lines.join('\n') + '\n'), 10_000);
    expect(seen).toEqual([5, 4, 3, 2, 1].map((n) => ({ n, pad: 'x'.repeat(n * 3) })));
    expect(result).toMatchObject({ reachedStart: true, capped: false, stopped: false, corruptLines: 0 });
  });

  it('stops at the boundary and reads no earlier byte', () => {
    const lines = Array.from({ length: 50 }, (_, n) => JSON.stringify({ n }));
    const path = file(lines.join('\n') + '\n');
    const { seen, result } = collect(path, 1_000_000, 16, (e) => (e as { n: number }).n === 45);
    expect(seen.map((e) => (e as { n: number }).n)).toEqual([49, 48, 47, 46, 45]);
    expect(result.stopped).toBe(true);
    expect(result.bytesRead).toBeLessThan(120);
  });

  it('honours the byte cap and drops the partial line at the cap', () => {
    const lines = Array.from({ length: 100 }, (_, n) => JSON.stringify({ n: 1000 + n }));
    const path = file(lines.join('\n') + '\n');
    const { seen, result } = collect(path, 50);
    expect(result.capped).toBe(true);
    expect(result.bytesRead).toBeLessThanOrEqual(50);
    // Every yielded line is complete and among the newest.
    for (const e of seen) expect((e as { n: number }).n).toBeGreaterThanOrEqual(1095);
    expect(seen[0]).toEqual({ n: 1099 });
  });

  it('keeps a line that ends exactly at the cap', () => {
    const path = file('{"n":1}\n{"n":2}\n');
    const { seen, result } = collect(path, 8, 3);
    expect(seen).toEqual([{ n: 2 }]);
    expect(result.capped).toBe(true);
  });

  it('skips corrupt lines and an unterminated final line', () => {
    const path = file('{"a":1}\nnot json\n{"b":2}\n{"c":');
    const { seen, result } = collect(path, 10_000);
    expect(seen).toEqual([{ b: 2 }, { a: 1 }]);
    expect(result.corruptLines).toBe(2);
  });

  it('passes a complete unterminated final line with the flag set', () => {
    const path = file('{"a":1}\n{"b":2}');
    const infos: boolean[] = [];
    readJsonlTail(path, { maxBytes: 100, visit: (_e, info) => (infos.push(info.unterminated), 'continue') });
    expect(infos).toEqual([true, false]);
  });

  it('decodes multi-byte UTF-8 split across chunks', () => {
    const text = 'é€😀'.repeat(20);
    const path = file(JSON.stringify({ text }) + '\n' + JSON.stringify({ text: 'ok' }) + '\n');
    const { seen } = collect(path, 10_000, 5);
    expect(seen).toEqual([{ text: 'ok' }, { text }]);
  });

  it('handles a single line larger than the cap without holding it', () => {
    const big = JSON.stringify({ big: 'y'.repeat(200_000) });
    const path = file(JSON.stringify({ first: true }) + '\n' + big + '\n' + JSON.stringify({ last: true }) + '\n');
    const { seen, result } = collect(path, 1000, 256);
    expect(seen).toEqual([{ last: true }]);
    expect(result.capped).toBe(true);
    expect(result.bytesRead).toBeLessThanOrEqual(1000);
  });

  it('uses skipLine to avoid parsing', () => {
    const path = file('{"keep":1}\n{"type":"api-request-shape","x":1}\n{"keep":2}\n');
    const seen: unknown[] = [];
    const result = readJsonlTail(path, {
      maxBytes: 1000,
      skipLine: (line) => line.includes('"api-request-shape"'),
      visit: (e) => (seen.push(e), 'continue'),
    });
    expect(seen).toEqual([{ keep: 2 }, { keep: 1 }]);
    expect(result.skippedLines).toBe(1);
  });

  it('mustContainAny skips lines on their bytes, before decoding or skipLine, across chunk boundaries', () => {
    // A line without any needle, even one that is not valid UTF-8, never reaches skipLine or visit.
    const bytes = Buffer.concat([
      Buffer.from('{"usage":{"n":1}}\n'),
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d, 0x0a]),
      Buffer.from('{"tool":"output with no key of interest"}\n{"turn_context":{"n":2}}\n{"other":"usage without quotes"}\n'),
    ]);
    const path = file(bytes);
    const seen: unknown[] = [];
    const decoded: string[] = [];
    const result = readJsonlTail(path, {
      maxBytes: 10_000,
      chunkBytes: 5,
      mustContainAny: ['"usage"', '"turn_context"'],
      skipLine: (line) => (decoded.push(line), false),
      visit: (e) => (seen.push(e), 'continue'),
    });
    expect(seen).toEqual([{ turn_context: { n: 2 } }, { usage: { n: 1 } }]);
    expect(decoded).toEqual(['{"turn_context":{"n":2}}', '{"usage":{"n":1}}']);
    expect(result.skippedLines).toBe(3);
    expect(result.corruptLines).toBe(0);
  });

  it('mustContainAny matches a needle beyond ASCII by its UTF-8 bytes (a call id from a payload)', () => {
    const path = file('{"id":"toolu_é1"}\n{"id":"toolu_1"}\n');
    const seen: unknown[] = [];
    readJsonlTail(path, { maxBytes: 1_000, mustContainAny: ['"toolu_é1"'], visit: (e) => (seen.push(e), 'continue') });
    expect(seen).toEqual([{ id: 'toolu_é1' }]);
  });

  it('reads an empty file', () => {
    const { seen, result } = collect(file(''), 100);
    expect(seen).toEqual([]);
    expect(result).toMatchObject({ reachedStart: true, capped: false });
  });

  it('stops when aborted', () => {
    const controller = new AbortController();
    controller.abort();
    const result = readJsonlTail(file('{"a":1}\n'), { maxBytes: 100, signal: controller.signal, visit: () => 'continue' });
    expect(result.aborted).toBe(true);
    expect(result.linesVisited).toBe(0);
  });
});

describe('readJsonlTail noFollow', () => {
  it('refuses a symbolic link with ELOOP and still reads the real file', () => {
    const target = file('{"a":1}\n');
    const link = join(dir, 'link.jsonl');
    symlinkSync(target, link);
    expect(() => readJsonlTail(link, { maxBytes: 100, noFollow: true, visit: () => 'continue' })).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect(readJsonlTail(link, { maxBytes: 100, visit: () => 'continue' }).linesVisited).toBe(1);
    expect(readJsonlTail(target, { maxBytes: 100, noFollow: true, visit: () => 'continue' }).linesVisited).toBe(1);
  });
});

describe('readJsonlTail reachedStart', () => {
  it('is false when the visitor stopped, even if the file fits in one chunk', () => {
    const path = file('{"n":1}\n{"n":2}\n');
    const result = readJsonlTail(path, { maxBytes: 1000, visit: () => 'stop' });
    expect(result.stopped).toBe(true);
    expect(result.reachedStart).toBe(false);
    expect(result.capped).toBe(false);
  });
});

describe('readJsonlTail on special files', () => {
  it('refuses a FIFO without blocking', async () => {
    const { execFileSync } = await import('node:child_process');
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(() => readJsonlTail(fifo, { maxBytes: 100, visit: () => 'continue' })).toThrow(/Not a regular file/);
  });
  it('refuses a directory', () => {
    expect(() => readJsonlTail(dir, { maxBytes: 100, visit: () => 'continue' })).toThrow(/Not a regular file/);
  });
});
