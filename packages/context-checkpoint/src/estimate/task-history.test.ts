import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenUsage } from '@agent-checkpoint/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { estimateTask } from './estimate-task.ts';
import { extractTaskFeatures } from './task-features.ts';
import { actualTurnTokens, readTaskHistory, recordTaskOutcome, taskHistoryLocation, type TaskHistorySample } from './task-history.ts';

let root: string;
let options: { stateDir: string; projectRoot: string };

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ac-history-'));
  options = { stateDir: join(root, 'state'), projectRoot: join(root, 'repo') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const usage = (minute: number, contextTokens: number): TokenUsage => ({
  contextTokens,
  outputTokens: 400,
  model: 'claude-sonnet-4-5-20250929',
  timestamp: new Date(Date.UTC(2026, 10, 20, 9, minute)).toISOString(),
});

describe('actualTurnTokens', () => {
  it('is the growth from the last record before the turn to the latest one', () => {
    const history = [usage(0, 20_000), usage(1, 24_000), usage(5, 26_000), usage(6, 41_000), usage(7, 58_500)];
    expect(actualTurnTokens(history, new Date(Date.UTC(2026, 10, 20, 9, 4)).toISOString())).toBe(58_500 - 24_000);
  });

  it('a compaction before the turn is fine; one inside the turn hides the cost (undefined)', () => {
    const before = [usage(0, 150_000), usage(1, 30_000), usage(5, 32_000), usage(6, 50_000)];
    expect(actualTurnTokens(before, new Date(Date.UTC(2026, 10, 20, 9, 4)).toISOString())).toBe(50_000 - 30_000);
    const inside = [usage(0, 20_000), usage(5, 150_000), usage(6, 30_000), usage(7, 40_000)];
    expect(actualTurnTokens(inside, new Date(Date.UTC(2026, 10, 20, 9, 4)).toISOString())).toBeUndefined();
  });

  it('undefined when nothing can be placed in the turn', () => {
    expect(actualTurnTokens([{ contextTokens: 5000 }], '2026-11-20T09:00:00Z')).toBeUndefined();
    expect(actualTurnTokens(undefined, '2026-11-20T09:00:00Z')).toBeUndefined();
  });
});

describe('the task history store', () => {
  it('records turns per project, skips invalid lines on read, and feeds the estimator', async () => {
    const prompt = 'Add a --json flag to the report command in src/cli/report.ts';
    const features = extractTaskFeatures(prompt);
    for (let i = 0; i < 20; i += 1) {
      const sample: TaskHistorySample = { at: new Date(Date.UTC(2026, 10, 20, 9, i)).toISOString(), features, estimatedTokens: 13_000, actualTokens: 26_030 };
      await recordTaskOutcome(options, sample);
    }
    const path = join(options.stateDir, taskHistoryLocation(options).relPath);
    expect(path).toMatch(/estimates\/[0-9a-f]{16}\.jsonl$/);
    // Lines an agent could plant: negative tokens, a huge count, not JSON.
    appendFileSync(
      path,
      `${JSON.stringify({ at: '2026-11-20T10:00:00Z', features, estimatedTokens: 1, actualTokens: -5 })}\n` +
        `${JSON.stringify({ at: '2026-11-20T10:00:00Z', features: { ...features, planOpenItems: 1e9 }, estimatedTokens: 1, actualTokens: 1 })}\n` +
        'rm -rf /\n',
    );
    const read = await readTaskHistory(options);
    expect(read.records).toHaveLength(20);
    expect(read.skippedLines).toBe(3);
    const e = estimateTask({ prompt, history: read.records, window: 200_000, used: 0 });
    expect(e.correction?.weight).toBe(1);
    expect(e.tokens).toBeGreaterThan(e.baselineTokens * 1.9);
  });

  it('refuses to record an invalid sample', async () => {
    await expect(recordTaskOutcome(options, { at: 'soon', features: extractTaskFeatures('x'), estimatedTokens: 1, actualTokens: 1 })).rejects.toThrow(/ISO-8601/);
    expect((await readTaskHistory(options)).records).toEqual([]);
  });
});
