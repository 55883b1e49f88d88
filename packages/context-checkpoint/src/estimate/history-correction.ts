import { baselineEstimate } from './baseline-model.ts';
import { median } from './estimate-accuracy.ts';
import { isLearnableSample } from './estimate-basis.ts';
import type { TaskFeatures } from './task-features.ts';
import type { TaskHistorySample } from './task-history-schema.ts';

/** Like-for-like samples needed before the history corrects the baseline at all. */
export const MIN_HISTORY_SAMPLES = 5;
/** Samples at which the history's correction gets its full weight (linear in between). */
export const FULL_WEIGHT_SAMPLES = 20;
/** Neighbours whose actual/baseline ratio is taken (median). */
export const NEIGHBOURS = 5;
/** Newest samples considered. */
export const MAX_HISTORY_SAMPLES = 500;
/**
 * Bounds of the history's correction factor. The floor is ×0.5, not lower: the seed says "start
 * conservative", and a run of cheap turns must never talk a large task down to a "proceed" (with
 * ×0.25 a refactor over 60 % came out at ~24 %).
 */
export const RATIO_BOUNDS = { min: 0.5, max: 4 } as const;

/** The history's correction of the baseline. */
export interface HistoryCorrection {
  /** Like-for-like samples available (after validation and {@link isLearnableSample}). */
  readonly samples: number;
  /** Median actual/baseline ratio of the nearest neighbours, clamped to {@link RATIO_BOUNDS}. */
  readonly ratio: number;
  /** 0–1: how much of the ratio was applied. */
  readonly weight: number;
}

/** A history made ready for many look-ups: like-for-like samples with their kind and actual/baseline ratio. */
export interface PreparedHistory {
  readonly samples: readonly { readonly kind: readonly number[]; readonly ratio: number; readonly index: number }[];
}

/**
 * Keep the like-for-like samples ({@link isLearnableSample}) of the newest {@link MAX_HISTORY_SAMPLES},
 * each with its kind vector and its ratio of actual to today's baseline of its features (so a change
 * of weights never mixes scales). Done once per estimate, however many items are priced.
 */
export function prepareHistory(history: readonly TaskHistorySample[]): PreparedHistory {
  const usable = history.slice(-MAX_HISTORY_SAMPLES).filter((s) => s.actualTokens > 0 && isLearnableSample(s));
  return { samples: usable.map((s, index) => ({ kind: kindVector(s.features), ratio: s.actualTokens / Math.max(1, baselineEstimate(s.features).tokens), index })) };
}

/**
 * The history's correction for a task with `features`, or undefined with too few usable samples. Only
 * like-for-like samples count ({@link isLearnableSample}: prompt-only estimates against that turn's
 * growth): the median ratio of actual to baseline among the {@link NEIGHBOURS} past prompts most
 * similar in *kind* (prompt length, paths, list items, scope words), weighted up to 1 at
 * {@link FULL_WEIGHT_SAMPLES}.
 */
export function historyCorrection(features: TaskFeatures, history: readonly TaskHistorySample[] | PreparedHistory): HistoryCorrection | undefined {
  const prepared = 'samples' in history ? history : prepareHistory(history);
  const count = prepared.samples.length;
  if (count < MIN_HISTORY_SAMPLES) return undefined;
  const target = kindVector(features);
  // The NEIGHBOURS nearest, ties to the newer sample (the project's recent habits matter most): a
  // bounded insertion, not a sort of the whole history per item priced.
  const nearest: { distance: number; index: number; ratio: number }[] = [];
  for (const s of prepared.samples) {
    const d = distance(s.kind, target);
    const closer = (n: { distance: number; index: number }): boolean => d < n.distance || (d === n.distance && s.index > n.index);
    if (nearest.length === NEIGHBOURS && !closer(nearest[NEIGHBOURS - 1] as { distance: number; index: number })) continue;
    let at = nearest.findIndex(closer);
    if (at === -1) at = nearest.length;
    nearest.splice(at, 0, { distance: d, index: s.index, ratio: s.ratio });
    if (nearest.length > NEIGHBOURS) nearest.pop();
  }
  const ratio = Math.min(RATIO_BOUNDS.max, Math.max(RATIO_BOUNDS.min, median(nearest.map((n) => n.ratio))));
  const weight = Math.min(1, count / FULL_WEIGHT_SAMPLES);
  return { samples: count, ratio: Math.round(ratio * 1000) / 1000, weight };
}

/** The task's kind: log-scaled so "3 vs 6 paths" weighs like "10 vs 20". */
function kindVector(f: TaskFeatures): number[] {
  return [Math.log1p(f.promptChars / 100), Math.log1p(f.pathMentions), Math.log1p(f.bulletItems), f.broadScope, f.narrowScope > 0 ? 1 : 0];
}

function distance(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += ((a[i] as number) - (b[i] as number)) ** 2;
  return Math.sqrt(sum);
}
