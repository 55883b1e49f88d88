import type { ContextGrowth } from '../context/estimate-context-growth.ts';
import type { ContextThresholds, KnownContextReading } from '../context/read-context-level.ts';

/** The next mark above the current reading: a level's threshold, or `full` (100 %) past L3. */
export type ForecastTarget = 'L1' | 'L2' | 'L3' | 'full';

/**
 * How far the context is from the next level and how soon it gets there at the measured pace
 * (MON-002 growth, MON-003 prediction). `calls` and `minutes` are present only when the growth has a
 * positive rate of that kind.
 */
export interface NextLevelForecast {
  readonly target: ForecastTarget;
  /** The target's percentage of the window. */
  readonly percent: number;
  /** Tokens left before the target (≥ 1: the reading is below it). */
  readonly tokens: number;
  /** Model calls at the per-call rate, rounded up. */
  readonly calls?: number;
  /** Minutes at the per-minute rate, one decimal. */
  readonly minutes?: number;
}

/**
 * Forecast the next level from a reading and `estimateContextGrowth`'s rates, with the same rounding
 * as its `until` (calls up, minutes to one decimal). The target is chosen from the reading rather than
 * passed in, so the caller can compute the growth once, whatever the level.
 */
export function forecastNextLevel(reading: KnownContextReading, growth: ContextGrowth | undefined, thresholds: ContextThresholds): NextLevelForecast {
  const marks: readonly (readonly [ForecastTarget, number])[] = [
    ['L1', thresholds.l1],
    ['L2', thresholds.l2],
    ['L3', thresholds.l3],
    ['full', 100],
  ];
  const window = reading.contextWindow;
  // Exact comparison (`tokens × 100 < percent × window`), as levels are computed.
  const next = marks.find(([, percent]) => reading.contextTokens * 100 < percent * window);
  const [target, percent] = next ?? ['full', 100];
  const tokens = Math.max(1, Math.ceil((percent * window) / 100) - reading.contextTokens);
  const perCall = growth?.tokensPerCall;
  const perMinute = growth?.tokensPerMinute;
  return {
    target,
    percent,
    tokens,
    ...(perCall !== undefined && perCall > 0 ? { calls: Math.ceil(tokens / perCall) } : {}),
    ...(perMinute !== undefined && perMinute > 0 ? { minutes: Math.round((tokens / perMinute) * 10) / 10 } : {}),
  };
}
