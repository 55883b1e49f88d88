import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonlTail, type JsonlTailOptions } from './read-jsonl-tail.ts';
import { noRecordsDiagnostic, tailReadDiagnostics, type NoRecordsWording } from './tail-read-diagnostics.ts';

const WORDING: NoRecordsWording = {
  noCompleteLine: (bytes) => `no line in ${bytes}`,
  blank: (path) => `blank ${path}`,
  foreign: (path) => `foreign ${path}`,
  unknown: (path) => `unknown ${path}`,
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-tail-diagnostics-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Reads a real file the way a reader does: lines with `"agent":"other"` are another agent's, no line is ours. */
function readNone(content: string, options: Partial<JsonlTailOptions> = {}) {
  const path = join(dir, 'f.jsonl');
  writeFileSync(path, content);
  let foreign = 0;
  const tail = readJsonlTail(path, {
    maxBytes: 1024,
    ...options,
    visit: (entry) => {
      if ((entry as { agent?: unknown } | null)?.agent === 'other') foreign += 1;
      return 'continue';
    },
  });
  return { tail, diagnostic: noRecordsDiagnostic(tail, foreign, path, WORDING), path };
}

describe('noRecordsDiagnostic: why a tail held none of the reader’s records', () => {
  it('names the first cause: cut short, no complete line, blank, another agent’s, unknown', () => {
    const controller = new AbortController();
    controller.abort();
    expect(readNone('{"agent":"other"}\n', { signal: controller.signal }).diagnostic).toMatchObject({ level: 'warn', code: 'aborted' });
    expect(readNone('{"agent":"other"}\n'.repeat(10), { deadlineAt: Date.now() - 1 }).diagnostic).toMatchObject({ level: 'warn', code: 'deadline' });
    expect(readNone(`${JSON.stringify({ pad: 'x'.repeat(4096) })}\n`).diagnostic).toEqual({ level: 'warn', code: 'cap-reached', message: 'no line in 1024' });
    const blank = readNone('\n\n\n');
    expect(blank.diagnostic).toEqual({ level: 'warn', code: 'empty-file', message: `blank ${blank.path}` });
    const foreign = readNone('{"agent":"other"}\nnot json\n');
    expect(foreign.diagnostic).toEqual({ level: 'warn', code: 'wrong-agent', message: `foreign ${foreign.path}` });
    const unknown = readNone('{"agent":"mine?"}\nnot json\n');
    expect(unknown.diagnostic).toEqual({ level: 'warn', code: 'unknown-format', message: `unknown ${unknown.path}` });
    // Only corrupt lines: not blank, whatever else.
    expect(readNone('not json\n').diagnostic.code).toBe('unknown-format');
  });
});

describe('tailReadDiagnostics', () => {
  it('counts corrupt lines (info) and says when the read was cut short (warn)', () => {
    const { tail } = readNone('{"a":1}\n{"b":\nnope\n{"c":3}\n');
    expect(tailReadDiagnostics(tail)).toEqual([
      { level: 'info', code: 'corrupt-line', message: 'Skipped 2 line(s) that were not valid JSON (a final line may still be being written).' },
    ]);
    const cut = readNone('{"a":1}\n'.repeat(600), { deadlineAt: Date.now() - 1 }).tail;
    expect(tailReadDiagnostics(cut).map((d) => [d.level, d.code])).toEqual([['warn', 'deadline']]);
    expect(tailReadDiagnostics(readNone('{"a":1}\n').tail)).toEqual([]);
  });
});
