/** One estimate next to what the turn actually used. */
export interface EstimateOutcome {
  readonly estimatedTokens: number;
  readonly actualTokens: number;
}

/** How close estimates came to the actual use (EST-004). */
export interface EstimateAccuracy {
  /** Outcomes measured: those with a positive actual (a percentage error of 0 actual tokens is undefined). */
  readonly samples: number;
  /** Median of |estimated − actual| / actual, in percent (one decimal); undefined without samples. */
  readonly medianAbsPercentError?: number;
  /** Share of samples within ±25 % of the actual, 0–1; undefined without samples. */
  readonly withinQuarterShare?: number;
  /** Median of estimated / actual (> 1: estimates run high, the conservative side); undefined without samples. */
  readonly medianRatio?: number;
}

/** Relative tolerance of {@link EstimateAccuracy.withinQuarterShare}. */
export const ACCURACY_TOLERANCE = 0.25;

/**
 * Accuracy of `outcomes`: the median absolute percentage error (robust to the odd runaway turn, which
 * a mean is not) and the share within ±25 %. Outcomes whose actual is not a positive finite number are
 * left out.
 */
export function estimateAccuracy(outcomes: readonly EstimateOutcome[]): EstimateAccuracy {
  const valid = outcomes.filter((o) => Number.isFinite(o.estimatedTokens) && o.estimatedTokens >= 0 && Number.isFinite(o.actualTokens) && o.actualTokens > 0);
  if (valid.length === 0) return { samples: 0 };
  const errors = valid.map((o) => Math.abs(o.estimatedTokens - o.actualTokens) / o.actualTokens);
  const within = errors.filter((e) => e <= ACCURACY_TOLERANCE + 1e-12).length;
  return {
    samples: valid.length,
    medianAbsPercentError: Math.round(median(errors) * 1000) / 10,
    withinQuarterShare: within / valid.length,
    medianRatio: Math.round(median(valid.map((o) => o.estimatedTokens / o.actualTokens)) * 1000) / 1000,
  };
}

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
