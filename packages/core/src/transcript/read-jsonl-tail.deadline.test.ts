import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEADLINE_CHECK_LINES, readJsonlTail } from './read-jsonl-tail.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-tail-deadline-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** 170k tiny lines: the tail that cost 2.3 s of parsing against a 0.5 s hook deadline (issue 11). */
function tinyLines(line: string, count = 170_000): string {
  const path = join(dir, 'tail.jsonl');
  writeFileSync(path, `${line}\n`.repeat(count));
  return path;
}

describe('readJsonlTail deadline', () => {
  it.each(['{}', 'x', '{"type":"user"}'])('stops parsing %j lines once the deadline has passed, and says so', (line) => {
    let visited = 0;
    const result = readJsonlTail(tinyLines(line), {
      maxBytes: 512 * 1024,
      deadlineAt: Date.now() - 1,
      visit: () => {
        visited += 1;
        return 'continue';
      },
    });
    expect(result).toMatchObject({ aborted: true, deadlineReached: true, stopped: false, capped: false, reachedStart: false });
    // Bounded work: nothing is parsed once the deadline is seen at the first chunk.
    expect(visited + result.corruptLines + result.skippedLines).toBe(0);
  });

  it('a deadline that passes during parsing stops within one clock interval of lines', () => {
    // A fake clock that advances 1 ms per visited line: the deadline passes at the 1,000th line.
    let visited = 0;
    const start = 1_000_000;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => start + visited);
    try {
      const result = readJsonlTail(tinyLines('{}'), {
        maxBytes: 512 * 1024,
        deadlineAt: start + 1_000,
        visit: () => {
          visited += 1;
          return 'continue';
        },
      });
      expect(result).toMatchObject({ aborted: true, deadlineReached: true, stopped: false });
      expect(visited).toBeGreaterThanOrEqual(1_000);
      expect(visited).toBeLessThanOrEqual(1_000 + DEADLINE_CHECK_LINES);
    } finally {
      clock.mockRestore();
    }
  });

  it('a far deadline changes nothing', () => {
    const result = readJsonlTail(tinyLines('{}', 2_000), { maxBytes: 512 * 1024, deadlineAt: Date.now() + 60_000, visit: () => 'continue' });
    expect(result).toMatchObject({ aborted: false, deadlineReached: false, reachedStart: true, linesVisited: 2_000 });
  });
});
