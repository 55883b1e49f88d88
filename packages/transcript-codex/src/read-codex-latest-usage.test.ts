import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCodexLatestUsage } from './read-codex-latest-usage.ts';

const dir = mkdtempSync(join(tmpdir(), 'ac-codex-latest-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
function write(lines: readonly object[]): string {
  counter += 1;
  const path = join(dir, `rollout-${counter}.jsonl`);
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return path;
}
const ts = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const taskStarted = (s: number, window?: number) => ({ timestamp: ts(s), type: 'event_msg', payload: { type: 'task_started', turn_id: 't1', ...(window ? { model_context_window: window } : {}) } });
const turnContext = (s: number, model: string) => ({ timestamp: ts(s), type: 'turn_context', payload: { turn_id: 't1', cwd: '/repo', model } });
const tokenCount = (s: number, input: number, window?: number) => ({
  timestamp: ts(s),
  type: 'event_msg',
  payload: { type: 'token_count', info: { last_token_usage: { input_tokens: input, output_tokens: 2 }, ...(window ? { model_context_window: window } : {}) } },
});
const usageRecord = (s: number, input: number) => ({ timestamp: ts(s), type: 'token_usage_record', payload: { turn_id: 't1', usage: { input_tokens: input, output_tokens: 2 } } });
const toolOutput = (s: number, text: string) => ({ timestamp: ts(s), type: 'response_item', payload: { type: 'function_call_output', call_id: `c${s}`, output: text } });

describe('readCodexLatestUsage (Codex specifics)', () => {
  it('prefers token_count over the duplicate token_usage_record, with its window and the turn’s model', () => {
    const path = write([taskStarted(1), turnContext(2, 'gpt-5.5'), usageRecord(3, 1000), tokenCount(3, 1000, 258_400), usageRecord(4, 2000), tokenCount(4, 2000, 258_400)]);
    const found = readCodexLatestUsage({ transcriptPath: path });
    expect(found?.history).toEqual([
      { contextTokens: 1000, outputTokens: 2, contextWindow: 258_400, model: 'gpt-5.5', timestamp: ts(3) },
      { contextTokens: 2000, outputTokens: 2, contextWindow: 258_400, model: 'gpt-5.5', timestamp: ts(4) },
    ]);
  });

  it('at PostToolUse the newest response has only its token_usage_record (its token_count follows the tool output): that record is the latest usage', () => {
    // Codex 0.169's order: record(A), tool output, count(A), record(B) — the hook after B's tool call runs here.
    const path = write([taskStarted(1, 200_000), turnContext(2, 'gpt-5.5'), usageRecord(3, 136_000), toolOutput(3, 'ok'), tokenCount(3, 136_000, 258_400), usageRecord(4, 144_000)]);
    const found = readCodexLatestUsage({ transcriptPath: path });
    expect(found?.usage).toEqual({ contextTokens: 144_000, outputTokens: 2, contextWindow: 258_400, model: 'gpt-5.5', timestamp: ts(4) });
    // One entry per response: A (its token_count), B (its record).
    expect(found?.history.map((u) => u.contextTokens)).toEqual([136_000, 144_000]);
  });

  it('uses token_usage_record in a rollout without token_count, the window from task_started', () => {
    const path = write([taskStarted(1, 200_000), turnContext(2, 'gpt-5'), usageRecord(3, 1500), usageRecord(4, 2500)]);
    expect(readCodexLatestUsage({ transcriptPath: path, history: 1 })?.usage).toEqual({ contextTokens: 2500, outputTokens: 2, contextWindow: 200_000, model: 'gpt-5', timestamp: ts(4) });
  });

  it('reads back past a long turn to the turn context for the model, and no further', () => {
    const big = 'y'.repeat(150 * 1024);
    const path = write([turnContext(0, 'gpt-old'), tokenCount(0, 5, 100), taskStarted(1), turnContext(2, 'gpt-5.5'), toolOutput(3, big), tokenCount(4, 3000, 258_400), toolOutput(5, 'tail')]);
    const found = readCodexLatestUsage({ transcriptPath: path, history: 1 });
    expect(found?.usage.model).toBe('gpt-5.5');
    expect(found?.history).toHaveLength(1);
  });

  it('tool output that quotes a token_count line is not a record', () => {
    const path = write([turnContext(1, 'gpt-5.5'), tokenCount(2, 700, 258_400), toolOutput(3, '{"type":"token_count","info":{"last_token_usage":{"input_tokens":99999}}}')]);
    expect(readCodexLatestUsage({ transcriptPath: path })?.usage.contextTokens).toBe(700);
  });
});

describe('readCodexLatestUsage: window of token_usage_record rollouts', () => {
  it('reads back to the turn start for the window even when the turn is longer than the first window', () => {
    const big = 'z'.repeat(150 * 1024);
    const path = write([taskStarted(1, 200_000), turnContext(2, 'gpt-5'), toolOutput(3, big), usageRecord(4, 1500), toolOutput(5, big), usageRecord(6, 2500)]);
    expect(readCodexLatestUsage({ transcriptPath: path })?.usage).toEqual({ contextTokens: 2500, outputTokens: 2, contextWindow: 200_000, model: 'gpt-5', timestamp: ts(6) });
  });
});
