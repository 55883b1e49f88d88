// Light on purpose (no zod, no core root): the monitor measures the snapshot in its decision bundle,
// after every tool call (post-tool/monitor-bundles.test.ts); only its write is in the acting part.
import type { TokenUsage } from '@agent-checkpoint/core';
import { estimateContextGrowth } from '../context/estimate-context-growth.ts';
import type { ContextThresholds, KnownContextReading } from '../context/read-context-level.ts';
import type { CheckpointStateSnapshot, CheckpointStateSource } from './session-slots.ts';

/**
 * Seed 004's checkpoint state from one reading and the usage history behind it: the level, the
 * percentage, the trend (MON-002), tokens per minute and the time to L2 (MON-003), and which route
 * measured it (`by`). Pure.
 */
export function checkpointStateSnapshot(
  reading: KnownContextReading,
  history: readonly TokenUsage[] | undefined,
  thresholds: ContextThresholds,
  now: Date,
  by: CheckpointStateSource,
): CheckpointStateSnapshot {
  const growth = estimateContextGrowth(history, { contextWindow: reading.contextWindow, thresholds, target: 'L2' });
  const trend = growth.compacted ? 'decreasing' : (growth.tokensPerCall ?? 0) > 0 ? 'increasing' : 'stable';
  const atOrAboveL2 = reading.level === 'L2' || reading.level === 'L3';
  const minutes = atOrAboveL2 ? 0 : growth.until?.minutes;
  return {
    level: reading.level,
    percent: reading.displayPercent,
    trend,
    ...(growth.tokensPerMinute !== undefined ? { tokensPerMinute: Math.round(growth.tokensPerMinute) } : {}),
    ...(minutes !== undefined ? { minutesToL2: minutes } : {}),
    at: now.toISOString(),
    by,
  };
}
