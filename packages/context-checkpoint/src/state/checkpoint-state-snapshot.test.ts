import type { TokenUsage } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_THRESHOLDS } from '../config/context-config.ts';
import { readContextLevel, type KnownContextReading } from '../context/read-context-level.ts';
import { checkpointStateSnapshot, describeCheckpointState } from './checkpoint-state-snapshot.ts';

// Seed 004's checkpoint state: level, percentage, trend, tokens per minute, time to L2.

const NOW = new Date('2026-01-07T11:45:00.000Z');
const reading = (tokens: number): KnownContextReading => readContextLevel({ contextTokens: tokens, contextWindow: 200_000 }) as KnownContextReading;
const usage = (tokens: number, minute: number): TokenUsage => ({ contextTokens: tokens, contextWindow: 200_000, timestamp: `2026-01-07T11:${String(minute).padStart(2, '0')}:00.000Z` });

describe('checkpointStateSnapshot', () => {
  it('L1 at 72 %, growing 850 tokens a minute: increasing, ~30.6 min to L2 (85 %)', () => {
    const history = [usage(127_000, 0), usage(135_500, 10), usage(144_000, 20)];
    const snapshot = checkpointStateSnapshot(reading(144_000), history, DEFAULT_CONTEXT_THRESHOLDS, NOW, 'turn-end');
    expect(snapshot).toEqual({ level: 'L1', percent: 72, trend: 'increasing', tokensPerMinute: 850, minutesToL2: 30.6, at: NOW.toISOString(), by: 'turn-end' });
    expect(describeCheckpointState(snapshot)).toBe('L1 at 72 %, increasing, ~850 tokens/min, ~30.6 min to L2');
  });

  it('after a compaction the trend is decreasing; at L2 the time to L2 is 0; no pace, no time', () => {
    const fell = checkpointStateSnapshot(reading(40_000), [usage(170_000, 0), usage(40_000, 5)], DEFAULT_CONTEXT_THRESHOLDS, NOW, 'turn-end');
    expect(fell).toMatchObject({ level: 'L0', trend: 'decreasing' });
    expect(checkpointStateSnapshot(reading(172_000), [usage(172_000, 0)], DEFAULT_CONTEXT_THRESHOLDS, NOW, 'turn-end')).toEqual({ level: 'L2', percent: 86, trend: 'stable', minutesToL2: 0, at: NOW.toISOString(), by: 'turn-end' });
    expect(checkpointStateSnapshot(reading(100_000), undefined, DEFAULT_CONTEXT_THRESHOLDS, NOW, 'turn-end')).toEqual({ level: 'L0', percent: 50, trend: 'stable', at: NOW.toISOString(), by: 'turn-end' });
  });
});
