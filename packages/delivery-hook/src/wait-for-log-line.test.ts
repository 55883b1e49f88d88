import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitForLogLine, type LogLineWait } from './wait-for-log-line.ts';

// The one bounded wait behind the monitor's wait for its tool call (post-tool/wait-for-tool-call.ts)
// and the Copilot stop's wait for its hook.start (agents/copilot-transcript-wait.ts); their own tests
// cover each use.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-wait-line-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const line = (n: number): string => `${JSON.stringify({ type: 'mark', n })}\n`;
function waitFor(path: string, n: number, options: Partial<LogLineWait> = {}): ReturnType<typeof waitForLogLine> {
  return waitForLogLine({
    path,
    mustContainAny: ['"mark"'],
    match: (entry) => {
      const seen = (entry as { n?: unknown }).n;
      if (seen === n) return 'found';
      return typeof seen === 'number' && seen < n ? 'older' : 'continue';
    },
    tailBytes: 64 * 1024,
    pollMs: 10,
    deadlineAt: Date.now() + 10_000,
    missing: 'wait',
    ...options,
  });
}

describe('waitForLogLine', () => {
  it('reads newest first and stops at an older line: a match behind it is not this wait\'s line', async () => {
    const path = join(dir, 'log.jsonl');
    writeFileSync(path, line(5) + line(3) + line(7));
    expect(await waitFor(path, 7)).toBe('found');
    expect(await waitFor(path, 5, { deadlineAt: Date.now() + 50 })).toBe('timeout');
  });

  it("'wait' waits for a log whose directory is not there yet; 'wait-in-directory' does not", async () => {
    const path = join(dir, 'session', 'log.jsonl');
    expect(await waitFor(path, 1, { missing: 'wait-in-directory', deadlineAt: Date.now() + 60_000 })).toBe('unreadable');
    const timer = setTimeout(() => {
      mkdirSync(join(dir, 'session'));
      writeFileSync(path, line(1));
    }, 50);
    expect(await waitFor(path, 1)).toBe('found');
    clearTimeout(timer);
  });

  it('a symbolic link in the log\'s place is unreadable with noFollow, and read without it', async () => {
    const target = join(dir, 'real.jsonl');
    writeFileSync(target, line(1));
    const link = join(dir, 'log.jsonl');
    symlinkSync(target, link);
    expect(await waitFor(link, 1, { noFollow: true })).toBe('unreadable');
    expect(await waitFor(link, 1)).toBe('found');
  });

  it('gives up at the deadline, having looked once more at it', async () => {
    const path = join(dir, 'log.jsonl');
    writeFileSync(path, line(1));
    const started = Date.now();
    expect(await waitFor(path, 2, { deadlineAt: started + 80 })).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(80);
  });
});
