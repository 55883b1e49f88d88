import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonlTail } from './read-jsonl-tail.ts';
import { readLatestUsageFile, type LatestUsageFile } from './resolve-latest-usage-request.ts';
import { DEFAULT_LATEST_USAGE_HISTORY, DEFAULT_LATEST_USAGE_MAX_BYTES, LATEST_USAGE_INITIAL_BYTES, type LatestUsage } from './transcript-reader.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-latest-usage-file-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const ANSWER: LatestUsage = { usage: { contextTokens: 1, outputTokens: 2 }, history: [{ contextTokens: 1, outputTokens: 2 }], readStats: { bytesRead: 1, fileBytes: 1 } };

describe('readLatestUsageFile: the prologue every readLatestUsage shares', () => {
  it('hands a non-empty regular file to the format logic, with its size and the sanitised limits', () => {
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '{"a":1}\n');
    const handed: LatestUsageFile[] = [];
    const answer = readLatestUsageFile({ transcriptPath: path, history: 3.5, maxBytes: -5 }, (file) => {
      handed.push(file);
      return ANSWER;
    });
    expect(answer).toBe(ANSWER);
    expect(handed).toEqual([{ path, size: 8, limits: { maxBytes: DEFAULT_LATEST_USAGE_MAX_BYTES, chunkBytes: LATEST_USAGE_INITIAL_BYTES, history: 3 } }]);
    readLatestUsageFile({ transcriptPath: path }, (file) => {
      expect(file.limits.history).toBe(DEFAULT_LATEST_USAGE_HISTORY);
      return undefined;
    });
  });

  it('resolves nothing, without running the format logic, for a path with nothing to read or an aborted request', () => {
    const directory = join(dir, 'd.jsonl');
    mkdirSync(directory);
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const regular = join(dir, 'r.jsonl');
    writeFileSync(regular, '{"a":1}\n');
    const aborted = new AbortController();
    aborted.abort();
    const requests = [
      { transcriptPath: '' },
      { transcriptPath: 42 as unknown as string },
      { transcriptPath: join(dir, 'gone.jsonl') },
      { transcriptPath: directory },
      { transcriptPath: fifo },
      { transcriptPath: empty },
      { transcriptPath: join(regular, 'below') },
      { transcriptPath: regular, signal: aborted.signal },
    ];
    for (const request of requests) {
      let ran = false;
      const answer = readLatestUsageFile(request, () => {
        ran = true;
        return ANSWER;
      });
      expect(answer, String(request.transcriptPath)).toBeUndefined();
      expect(ran, String(request.transcriptPath)).toBe(false);
    }
  });

  it('resolves nothing when the format logic throws (the file swapped for a FIFO after the stat, a bug)', () => {
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '{"a":1}\n');
    const swapped = readLatestUsageFile({ transcriptPath: path }, (file) => {
      unlinkSync(file.path);
      execFileSync('mkfifo', [file.path]);
      readJsonlTail(file.path, { maxBytes: file.limits.maxBytes, visit: () => 'continue' });
      return ANSWER;
    });
    expect(swapped).toBeUndefined();
    expect(
      readLatestUsageFile({ transcriptPath: join(dir, 't.jsonl') }, () => {
        throw new TypeError('a format bug');
      }),
    ).toBeUndefined();
  });
});
