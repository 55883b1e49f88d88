import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForToolCall } from './wait-for-tool-call.ts';

// Claude Code writes its transcript through a 100 ms queue: the monitor waits (bounded) for the entry
// of the call its PostToolUse reports before reading that call's usage.

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
function transcript(text: string): string {
  dir = mkdtempSync(join(tmpdir(), 'ac-wait-call-'));
  const path = join(dir, 'session.jsonl');
  writeFileSync(path, text);
  return path;
}
const ENTRY = (id: string): string => `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id, name: 'Bash' }], usage: { input_tokens: 144_000 } } })}\n`;

describe('waitForToolCall', () => {
  it('found at once when the transcript already names the call', async () => {
    expect(await waitForToolCall(transcript(ENTRY('toolu_1')), '"toolu_1"', Date.now() + 5_000)).toBe('found');
  });

  it('waits for a lagging write of the call, then finds it', async () => {
    const path = transcript(ENTRY('toolu_1'));
    const timer = setTimeout(() => appendFileSync(path, ENTRY('toolu_2')), 60);
    const started = Date.now();
    expect(await waitForToolCall(path, '"toolu_2"', Date.now() + 10_000)).toBe('found');
    clearTimeout(timer);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('a call whose line is still being written is waited for until the line is whole (the usage readers skip a partial line)', async () => {
    const whole = ENTRY('toolu_2');
    const cut = whole.indexOf('"toolu_2"') + 20;
    const path = transcript(ENTRY('toolu_1') + whole.slice(0, cut));
    const timer = setTimeout(() => appendFileSync(path, whole.slice(cut)), 60);
    const started = Date.now();
    expect(await waitForToolCall(path, '"toolu_2"', Date.now() + 10_000)).toBe('found');
    clearTimeout(timer);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('finds a call id beyond ASCII (the mark is JSON from the payload, not escaped)', async () => {
    expect(await waitForToolCall(transcript(ENTRY('toolu_ü1')), '"toolu_ü1"', Date.now() + 5_000)).toBe('found');
  });

  it('gives up at the deadline when the call never comes (another id is not it)', async () => {
    const path = transcript(ENTRY('toolu_10'));
    expect(await waitForToolCall(path, '"toolu_1"', Date.now() + 80)).toBe('timeout');
  });

  it('a log not written yet in an existing session directory (a new Copilot session) is waited for', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ac-wait-call-'));
    const path = join(dir, 'events.jsonl');
    const timer = setTimeout(() => writeFileSync(path, '{"type":"hook.start","data":{"input":{"timestamp":17}}}\n'), 60);
    expect(await waitForToolCall(path, '"timestamp":17', Date.now() + 10_000)).toBe('found');
    clearTimeout(timer);
  });

  it('a log in a directory that does not exist (a Copilot subagent\'s session id) or a FIFO in its place: unreadable, without waiting or hanging', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ac-wait-call-'));
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(await waitForToolCall(fifo, '"toolu_1"', Date.now() + 60_000)).toBe('unreadable');
    expect(await waitForToolCall(join(dir, 'subagent-session', 'events.jsonl'), '"toolu_1"', Date.now() + 60_000)).toBe('unreadable');
  });
});
