import { describe, expect, it } from 'vitest';
import type { TokenUsage } from '@agent-checkpoint/core';
import { estimateContextGrowth } from './estimate-context-growth.ts';

/** A usage record every `minutes` apart from 10:00 UTC, Claude-shaped (no window). */
function series(tokens: readonly number[], minutes = 1): TokenUsage[] {
  return tokens.map((contextTokens, i) => ({
    contextTokens,
    outputTokens: 120,
    model: 'claude-sonnet-4-5-20250929',
    timestamp: new Date(Date.UTC(2026, 0, 7, 10, 0) + i * minutes * 60_000).toISOString(),
  }));
}

describe('estimateContextGrowth', () => {
  it('is empty without history', () => {
    expect(estimateContextGrowth(undefined)).toEqual({ samples: 0, compacted: false });
    expect(estimateContextGrowth([])).toEqual({ samples: 0, compacted: false });
  });

  it('has no rates from a single record but still measures the distance to L2', () => {
    expect(estimateContextGrowth(series([100_000]), { contextWindow: 200_000 })).toEqual({
      samples: 1,
      compacted: false,
      latestTokens: 100_000,
      until: { level: 'L2', tokens: 70_000 },
    });
  });

  it('measures tokens per call and per minute, and the calls and minutes until L2', () => {
    // 100k → 120k over 4 calls, 2 minutes apart: 5,000 per call, 2,500 per minute.
    const g = estimateContextGrowth(series([100_000, 104_000, 111_000, 115_000, 120_000], 2), { contextWindow: 200_000 });
    expect(g).toMatchObject({ samples: 5, compacted: false, latestTokens: 120_000, tokensPerCall: 5000, tokensPerMinute: 2500 });
    // L2 at 170,000: 50,000 to go → 10 calls, 20 minutes.
    expect(g.until).toEqual({ level: 'L2', tokens: 50_000, calls: 10, minutes: 20 });
  });

  it('measures only after the last compaction (a fall of more than 10 %)', () => {
    const g = estimateContextGrowth(series([150_000, 160_000, 40_000, 50_000, 60_000]), { contextWindow: 200_000 });
    expect(g).toMatchObject({ samples: 3, compacted: true, tokensPerCall: 10_000, tokensPerMinute: 10_000, latestTokens: 60_000 });
  });

  it('keeps small falls inside a run and never reports negative growth', () => {
    expect(estimateContextGrowth(series([100_000, 95_000, 110_000]))).toMatchObject({ samples: 3, compacted: false, tokensPerCall: 5000 });
    const flat = estimateContextGrowth(series([100_000, 99_000]), { contextWindow: 200_000 });
    expect(flat).toMatchObject({ tokensPerCall: 0, tokensPerMinute: 0 });
    expect(flat.until).toEqual({ level: 'L2', tokens: 71_000 });
  });

  it('uses this turn\'s pace for the turns until L2, from the last record before the turn started', () => {
    const history = series([100_000, 110_000, 118_000, 126_000, 130_000]); // 10:00 … 10:04
    const g = estimateContextGrowth(history, { contextWindow: 200_000, turnStartedAt: '2026-01-07T10:01:30.000Z' });
    // Baseline: the 10:01 record (110,000); the turn grew to 130,000 → 20,000 per turn; 40,000 left → 2 turns.
    expect(g.tokensThisTurn).toBe(20_000);
    expect(g.until).toMatchObject({ tokens: 40_000, turns: 2 });
  });

  it('takes the turn\'s first record as the baseline when the history starts inside the turn', () => {
    const g = estimateContextGrowth(series([100_000, 130_000]), { contextWindow: 200_000, turnStartedAt: '2026-01-07T09:00:00.000Z' });
    expect(g.tokensThisTurn).toBe(30_000);
    expect(g.until).toMatchObject({ tokens: 40_000, turns: 2 });
  });

  it('has no per-turn rate when no record lies in the turn or the turn start is invalid', () => {
    expect(estimateContextGrowth(series([1, 2]), { turnStartedAt: '2026-01-08T00:00:00Z' }).tokensThisTurn).toBeUndefined();
    expect(estimateContextGrowth(series([1, 2]), { turnStartedAt: 'yesterday' }).tokensThisTurn).toBeUndefined();
  });

  it('skips the per-minute rate without usable timestamps, and measures against another target level', () => {
    const untimed: TokenUsage[] = [{ contextTokens: 10_000 }, { contextTokens: 20_000 }, { contextTokens: 30_000, timestamp: 'garbage' }];
    const g = estimateContextGrowth(untimed, { contextWindow: 100_000, target: 'L3', thresholds: { l1: 50, l2: 60, l3: 90 } });
    expect(g.tokensPerMinute).toBeUndefined();
    expect(g.until).toEqual({ level: 'L3', tokens: 60_000, calls: 6 });
  });

  it('says 0 to go once the target is passed', () => {
    const g = estimateContextGrowth(series([160_000, 180_000]), { contextWindow: 200_000 });
    expect(g.until).toEqual({ level: 'L2', tokens: 0, calls: 0, minutes: 0 });
  });

  it('ignores non-finite records', () => {
    expect(estimateContextGrowth([{ contextTokens: Number.NaN }, { contextTokens: 10 }]).samples).toBe(1);
  });

  it('works on a Codex-shaped history (window in every record)', () => {
    // fixtures/codex/0.169.0/exec: token_count records 1000 then 1000 input tokens (mock model), window 258400.
    const history: TokenUsage[] = [
      { contextTokens: 1000, outputTokens: 50, contextWindow: 258_400, model: 'gpt-5.5', timestamp: '2026-11-22T02:13:04.109Z' },
      { contextTokens: 1000, outputTokens: 50, contextWindow: 258_400, model: 'gpt-5.5', timestamp: '2026-11-22T02:13:04.405Z' },
    ];
    const g = estimateContextGrowth(history, { contextWindow: 258_400 });
    expect(g).toMatchObject({ samples: 2, tokensPerCall: 0, tokensPerMinute: 0 });
    expect(g.until).toEqual({ level: 'L2', tokens: 219_640 - 1000 });
  });
});
