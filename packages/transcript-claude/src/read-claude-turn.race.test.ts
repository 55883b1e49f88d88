import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { matchesFinalText } from './read-claude-turn.ts';
import { expectValidTimeline, fixture, makeTempDir, PROBE_PREFIX } from './testing/fixtures.ts';

// The write race (claude-cli.md §2.4): on the 2nd Stop of the block-cap run the hook saw 28 lines;
// the payload already said "Final answer #1", whose entry is line 29 of the full transcript.
const record = JSON.parse(readFileSync(fixture('hook-payloads/stop-race-transcript-lagging.record.json'), 'utf8'));
const snapshot = readFileSync(fixture('hook-payloads/stop-race-transcript-lagging.snapshot.jsonl'), 'utf8');
const fullLines = readFileSync(fixture('stop-block-cap-reached.jsonl'), 'utf8').split('\n');
const hint = { turnId: record.payload.prompt_id as string, lastAssistantMessage: record.payload.last_assistant_message as string };

let temp: ReturnType<typeof makeTempDir>;
let path: string;
const timers: NodeJS.Timeout[] = [];
beforeEach(() => {
  temp = makeTempDir('ac-claude-race-');
  path = join(temp.dir, 'session.jsonl');
  writeFileSync(path, snapshot);
});
afterEach(() => {
  for (const timer of timers) clearTimeout(timer);
  timers.length = 0;
  temp.cleanup();
});

describe('the Stop-hook write race', () => {
  it('the recorded snapshot really lacks the final entry', () => {
    expect(hint.lastAssistantMessage).toBe('Final answer #1');
    expect(snapshot).not.toContain('Final answer #1');
    expect(fullLines.slice(0, 28).join('\n') + '\n').toBe(snapshot);
    expect(fullLines[28]).toContain('"text":"Final answer #1"');
  });

  it('waits until Claude flushes the final assistant entry, then returns the complete turn', async () => {
    const reader = createClaudeTranscriptReader({ pollIntervalMs: 20 });
    // Another timer plays Claude's flush: the queued entries land after a delay.
    timers.push(setTimeout(() => appendFileSync(path, fullLines.slice(28, 29).join('\n') + '\n'), 150));
    const startedAt = Date.now();
    // A generous deadline: the reader must return as soon as the entry is there, not at the deadline.
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, hint, flushWaitMs: 10_000 });
    const elapsed = Date.now() - startedAt;
    expectValidTimeline(timeline);
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['flush-waited']);
    expect(elapsed).toBeLessThan(10_000);
    expect(timeline.lastAssistantMessage).toBe('Final answer #1');
    // Both answers' usage is in the file now.
    expect(timeline.usageHistory).toHaveLength(2);
    expect(timeline.checkpointsDelivered).toBe(1);
  });

  it('without the hint it does not wait', async () => {
    const reader = createClaudeTranscriptReader();
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, hint: { turnId: hint.turnId } });
    expect(timeline.diagnostics).toEqual([]);
    expect(timeline.lastAssistantMessage).toBe('Final answer #0');
  });

  it('flushWaitMs: 0 disables waiting', async () => {
    const reader = createClaudeTranscriptReader();
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, hint, flushWaitMs: 0 });
    expect(timeline.diagnostics).toEqual([]);
    expect(timeline.usageHistory).toHaveLength(1);
    // The final text still comes from the payload.
    expect(timeline.lastAssistantMessage).toBe('Final answer #1');
  });

  it('gives up after flushWaitMs and returns what it has, with a diagnostic', async () => {
    const reader = createClaudeTranscriptReader({ pollIntervalMs: 10 });
    // Unrelated growth of the file (a bookkeeping line) must not end the wait.
    timers.push(setTimeout(() => appendFileSync(path, `${fullLines[21]}\n`), 30));
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, hint, flushWaitMs: 150 });
    expectValidTimeline(timeline);
    expect(timeline.hasData).toBe(true);
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['flush-timeout']);
    expect(timeline.usageHistory).toHaveLength(1);
    expect(timeline.lastAssistantMessage).toBe('Final answer #1');
  });

  it('an abort ends the wait promptly and still returns a timeline', async () => {
    const reader = createClaudeTranscriptReader();
    const controller = new AbortController();
    timers.push(setTimeout(() => controller.abort(), 30));
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, hint, flushWaitMs: 60_000, signal: controller.signal });
    expectValidTimeline(timeline);
    expect(timeline.hasData).toBe(true);
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['flush-wait-aborted']);
  });

  it('an already-aborted signal reads nothing and says so', async () => {
    const reader = createClaudeTranscriptReader();
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, hint, signal: AbortSignal.abort() });
    expectValidTimeline(timeline);
    expect(timeline.hasData).toBe(false);
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['aborted']);
  });
});

describe('matchesFinalText', () => {
  it.each([
    [['Final answer #1'], 'Final answer #1', true],
    [['Final answer #1\n'], '  Final answer #1', true],
    [['Final answer #0'], 'Final answer #1', false],
    [['second part', 'first part\n\nsecond part'], 'first part\nsecond part', true],
    [['second part', 'first part\n\nsecond part'], 'second part', true],
    [['done'], 'Not done', false],
    [['Not done'], 'done', false],
    [[''], '', false],
    [[], 'x', false],
  ])('%j vs hint %j → %s', (file, expected, result) => {
    expect(matchesFinalText(file, expected)).toBe(result);
  });
});
