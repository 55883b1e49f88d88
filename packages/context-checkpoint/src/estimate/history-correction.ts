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

/**
 * The history's correction for a task with `features`, or undefined with too few usable samples. Only
 * like-for-like samples count ({@link isLearnableSample}: prompt-only estimates against that turn's
 * growth): the median ratio of actual to baseline among the {@link NEIGHBOURS} past prompts most
 * similar in *kind* (prompt length, paths, list items, scope words), weighted up to 1 at
 * {@link FULL_WEIGHT_SAMPLES}.
 */
export function historyCorrection(features: TaskFeatures, history: readonly TaskHistorySample[]): HistoryCorrection | undefined {
  const usable = history.slice(-MAX_HISTORY_SAMPLES).filter((s) => s.actualTokens > 0 && isLearnableSample(s));
  if (usable.length < MIN_HISTORY_SAMPLES) return undefined;
  const target = kindVector(features);
  const ranked = usable
    .map((s, index) => ({ s, index, distance: distance(kindVector(s.features), target) }))
    // Ties go to the newer sample: the project's recent habits matter most.
    .sort((a, b) => a.distance - b.distance || b.index - a.index)
    .slice(0, NEIGHBOURS);
  // Ratios against today's baseline of each sample's features, so a change of weights never mixes scales.
  const ratios = ranked.map(({ s }) => s.actualTokens / Math.max(1, baselineEstimate(s.features).tokens));
  const ratio = Math.min(RATIO_BOUNDS.max, Math.max(RATIO_BOUNDS.min, median(ratios)));
  const weight = Math.min(1, usable.length / FULL_WEIGHT_SAMPLES);
  return { samples: usable.length, ratio: Math.round(ratio * 1000) / 1000, weight };
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
