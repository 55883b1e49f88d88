import { baselineEstimate, type EstimateReason } from './baseline-model.ts';
import { historyCorrection, prepareHistory, type HistoryCorrection, type PreparedHistory } from './history-correction.ts';
import type { PlanItem } from './parse-plan-items.ts';
import { extractTaskFeatures, type TaskFeatures } from './task-features.ts';
import type { TaskHistorySample } from './task-history-schema.ts';

/** The price of one task (a prompt, or one plan item read as a prompt). */
export interface TaskPrice {
  /** Estimated context tokens, after the history's correction. */
  readonly tokens: number;
  /** The baseline before the correction. */
  readonly baselineTokens: number;
  /** Which signals drove the baseline, plus the history's share when it corrected it. */
  readonly reasons: readonly EstimateReason[];
  /** Present when the history had enough like-for-like samples to correct the baseline. */
  readonly correction?: HistoryCorrection;
}

/**
 * The one model of the estimator: the baseline of a task's features ({@link baselineEstimate}), scaled
 * by the project's history of tasks of the same kind ({@link historyCorrection}). A prompt, a plan item,
 * a shard's items and a whole plan are all priced with it, so `estimate`, `shard`, the prompt hook and
 * the loop runner give the same number for the same work.
 */
export function priceTask(features: TaskFeatures, history: readonly TaskHistorySample[] | PreparedHistory): TaskPrice {
  const baseline = baselineEstimate(features);
  const correction = historyCorrection(features, history);
  if (correction === undefined) return { tokens: baseline.tokens, baselineTokens: baseline.tokens, reasons: baseline.reasons };
  const factor = 1 - correction.weight + correction.weight * correction.ratio;
  const tokens = Math.round(baseline.tokens * factor);
  const fromHistory: EstimateReason = {
    signal: 'history',
    detail: `${correction.samples} past prompt${correction.samples === 1 ? '' : 's'} of this project: similar tasks used ×${correction.ratio.toFixed(2)} the baseline (weight ${correction.weight.toFixed(2)})`,
    tokens: tokens - baseline.tokens,
  };
  return { tokens, baselineTokens: baseline.tokens, reasons: [...baseline.reasons, fromHistory], correction };
}

/** A plan item and its price. */
export interface EstimatedPlanItem extends PlanItem {
  readonly tokens: number;
}

/** The price of a set of plan items ({@link priceItems}). */
export interface ItemsPrice {
  readonly items: readonly EstimatedPlanItem[];
  /** Sum of the items' tokens. */
  readonly totalTokens: number;
}

/**
 * Price a set of plan items: each item's text read as a prompt and priced by {@link priceTask} (a base
 * turn, its path mentions, its scope words, corrected by the history of like tasks), the set as their
 * sum. The only function that prices plan work: `shard`, `estimate`, the prompt hook and the loop's
 * next item all call it.
 */
export function priceItems(items: readonly PlanItem[], history: readonly TaskHistorySample[]): ItemsPrice {
  const prepared = prepareHistory(history);
  const priced = items.map((item): EstimatedPlanItem => ({ ...item, tokens: priceTask(extractTaskFeatures(item.text), prepared).tokens }));
  return { items: priced, totalTokens: priced.reduce((sum, item) => sum + item.tokens, 0) };
}
