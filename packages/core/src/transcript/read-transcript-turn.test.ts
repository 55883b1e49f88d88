import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { readJsonlTail } from './read-jsonl-tail.ts';
import { readTranscriptTurn, startTranscriptTurn, transcriptMaxBytes, transcriptWording, type TranscriptTurnFile, type TranscriptTurnReader } from './read-transcript-turn.ts';
import { DEFAULT_TRANSCRIPT_MAX_BYTES } from './transcript-reader.ts';

const READER: TranscriptTurnReader = { agent: 'copilot', wording: transcriptWording('test log') };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-read-transcript-turn-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Runs the prologue with a format logic that records what it was handed and reads the tail for real. */
function read(transcriptPath: string, extra: { maxBytes?: number; signal?: AbortSignal } = {}, logic?: (file: TranscriptTurnFile) => TurnTimeline) {
  const handed: TranscriptTurnFile[] = [];
  const timeline = readTranscriptTurn({ transcriptPath, checkpointPrefix: '[ac] ', ...extra }, READER, (f) => {
    handed.push(f);
    if (logic) return logic(f);
    const tail = readJsonlTail(f.path, { maxBytes: f.maxBytes, visit: () => 'continue' });
    return { agent: 'copilot', hasData: true, calls: [], checkpointsDelivered: 0, truncated: false, readStats: { bytesRead: tail.bytesRead, fileBytes: tail.fileSize }, diagnostics: [] };
  });
  return { timeline, handed, codes: timeline.diagnostics.map((d) => d.code), messages: timeline.diagnostics.map((d) => d.message) };
}

describe('readTranscriptTurn: the prologue every reader shares', () => {
  it('hands a non-empty regular file to the format logic, with its size and the request’s bounds (the cap sanitised)', () => {
    const path = file('t.jsonl', '{"a":1}\n');
    const { timeline, handed } = read(path, { maxBytes: 1000.7 });
    expect(handed).toEqual([{ path, size: 8, maxBytes: 1000, bounds: { maxBytes: 1000 } }]);
    const signal = new AbortController().signal;
    const deadlineAt = Date.now() + 60_000;
    const bounded = readTranscriptTurn({ transcriptPath: path, checkpointPrefix: '', signal, deadlineAt }, READER, (f) => {
      expect(f.bounds).toEqual({ maxBytes: DEFAULT_TRANSCRIPT_MAX_BYTES, signal, deadlineAt });
      return read(path).timeline;
    });
    expect(bounded.hasData).toBe(true);
    expect(timeline).toMatchObject({ hasData: true, readStats: { bytesRead: 8, fileBytes: 8 } });
  });

  it('never calls the format logic for a path with nothing to read; one warning with the shared code, in the reader’s words', () => {
    const directory = join(dir, 'd.jsonl');
    mkdirSync(directory);
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    const regular = file('regular', 'x');
    const cases: [string, string, string][] = [
      ['', 'missing-file', 'No transcript path was given.'],
      [join(dir, 'gone.jsonl'), 'missing-file', `The test log does not exist: ${join(dir, 'gone.jsonl')}`],
      [directory, 'not-a-file', `The test log path is not a regular file: ${directory}`],
      // A FIFO is refused on its stat, never opened (an open for reading would wait for a writer).
      [fifo, 'not-a-file', `The test log path is not a regular file: ${fifo}`],
      [file('empty.jsonl', ''), 'empty-file', `The test log is empty: ${join(dir, 'empty.jsonl')}`],
      // ENOTDIR: stat fails otherwise than ENOENT, even for root (who ignores file modes).
      [join(regular, 'below.jsonl'), 'unreadable-file', `Could not read the test log ${join(regular, 'below.jsonl')}: ENOTDIR: not a directory, stat '${join(regular, 'below.jsonl')}'`],
    ];
    for (const [path, code, message] of cases) {
      const { timeline, handed, codes, messages } = read(path);
      expect(handed, path).toEqual([]);
      expect(timeline.hasData, path).toBe(false);
      expect(timeline.agent).toBe('copilot');
      expect(codes, path).toEqual([code]);
      expect(messages, path).toEqual([message]);
      expect(timeline.diagnostics[0]?.level).toBe('warn');
    }
    // Untrusted callers: not a string at all.
    expect(read(42 as unknown as string).codes).toEqual(['missing-file']);
  });

  it('an empty file says how much it read: nothing of nothing', () => {
    expect(read(file('empty.jsonl', '')).timeline.readStats).toEqual({ bytesRead: 0, fileBytes: 0 });
  });

  it('a link loop is unreadable, not missing', () => {
    const loop = join(dir, 'loop.jsonl');
    symlinkSync(loop, loop);
    expect(read(loop).codes).toEqual(['unreadable-file']);
  });

  it('a request aborted before the read says so (info) and reads nothing', () => {
    const controller = new AbortController();
    controller.abort();
    const { timeline, handed } = read(file('t.jsonl', '{"a":1}\n'), { signal: controller.signal });
    expect(handed).toEqual([]);
    expect(timeline.diagnostics).toEqual([{ level: 'info', code: 'aborted', message: 'Reading was aborted before it started.' }]);
  });

  it('maps what the format logic throws: a FIFO put in the file’s place, the file removed, any other failure', () => {
    const swapped = file('swapped.jsonl', '{"a":1}\n');
    const toFifo = read(swapped, {}, (f) => {
      unlinkSync(f.path);
      execFileSync('mkfifo', [f.path]);
      // The real tail reader opens without blocking and refuses what is not a regular file.
      readJsonlTail(f.path, { maxBytes: f.maxBytes, visit: () => 'continue' });
      throw new Error('unreachable: readJsonlTail must refuse the FIFO');
    });
    expect(toFifo.codes).toEqual(['not-a-file']);
    expect(toFifo.messages).toEqual([`The test log path is not a regular file: ${swapped}`]);

    const removed = file('removed.jsonl', '{"a":1}\n');
    const gone = read(removed, {}, (f) => {
      unlinkSync(f.path);
      readJsonlTail(f.path, { maxBytes: f.maxBytes, visit: () => 'continue' });
      throw new Error('unreachable: the file is gone');
    });
    expect(gone.codes).toEqual(['missing-file']);
    expect(gone.messages[0]).toMatch(/^The test log does not exist: .*removed\.jsonl$/);

    const buggy = read(file('bug.jsonl', '{"a":1}\n'), {}, () => {
      throw new TypeError('a format bug');
    });
    expect(buggy.timeline.hasData).toBe(false);
    expect(buggy.codes).toEqual(['unreadable-file']);
    expect(buggy.messages).toEqual([`Could not read the test log ${join(dir, 'bug.jsonl')}: a format bug`]);
  });

  it('startTranscriptTurn gives the same answers without running anything', () => {
    const path = file('t.jsonl', '{"a":1}\n');
    expect(startTranscriptTurn({ transcriptPath: path, checkpointPrefix: '' }, READER)).toEqual({ kind: 'read', file: { path, size: 8, maxBytes: DEFAULT_TRANSCRIPT_MAX_BYTES, bounds: { maxBytes: DEFAULT_TRANSCRIPT_MAX_BYTES } } });
    const missing = startTranscriptTurn({ transcriptPath: join(dir, 'none'), checkpointPrefix: '' }, READER);
    expect(missing.kind === 'done' && missing.timeline.diagnostics.map((d) => d.code)).toEqual(['missing-file']);
  });
});

describe('transcriptMaxBytes', () => {
  it('takes the default for a missing, negative or non-finite cap and floors the rest', () => {
    for (const bad of [undefined, -1, Number.NaN, Number.POSITIVE_INFINITY, '100' as unknown as number]) expect(transcriptMaxBytes(bad)).toBe(DEFAULT_TRANSCRIPT_MAX_BYTES);
    expect(transcriptMaxBytes(0)).toBe(0);
    expect(transcriptMaxBytes(4096.9)).toBe(4096);
  });
});
