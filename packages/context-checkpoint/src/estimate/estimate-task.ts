import { baselineEstimate, plural, type EstimateReason } from './baseline-model.ts';
import { median } from './estimate-accuracy.ts';
import { extractTaskFeatures, type TaskFeatures } from './task-features.ts';
import type { TaskHistorySample } from './task-history.ts';

import { taskBandOf, type TaskBand } from './task-band.ts';

export { BAND_LIMITS, type TaskBand } from './task-band.ts';

/**
 * What to do about a task:
 * - `proceed`: small and fits (P4 "< 30 %: execute normally");
 * - `consider-sharding`: medium and fits (P4 "30–60 %: consider sharding");
 * - `shard-first`: large (P4 "> 60 %: must shard before starting"; SHD-002);
 * - `checkpoint-first`: small or medium but more than the remaining budget (EST-002): hand off and
 *   start it in a fresh session, or shard it.
 */
export type EstimateRecommendation = 'proceed' | 'consider-sharding' | 'shard-first' | 'checkpoint-first';

/** History samples needed before the history corrects the baseline at all. */
export const MIN_HISTORY_SAMPLES = 5;
/** Samples at which the history's correction gets its full weight (linear in between). */
export const FULL_WEIGHT_SAMPLES = 20;
/** Neighbours whose actual/baseline ratio is taken (median). */
export const NEIGHBOURS = 5;
/** Newest samples considered. */
export const MAX_HISTORY_SAMPLES = 500;
/** Bounds of the history's correction factor: a few odd turns never scale an estimate wildly. */
export const RATIO_BOUNDS = { min: 0.25, max: 4 } as const;

/** Input of {@link estimateTask}. */
export interface EstimateTaskInput {
  /** The user's prompt (untrusted; bounded by the feature extraction). */
  readonly prompt: string;
  /** Text of the plan file the task works through, when there is one. */
  readonly planText?: string;
  /** The project's past turns ({@link readTaskHistory}); may be empty. */
  readonly history: readonly TaskHistorySample[];
  /** Context window in tokens (> 0). */
  readonly window: number;
  /** Tokens already in the context (the latest usage record); 0 for a fresh session. */
  readonly used: number;
  /**
   * Percent of the window the task must stay under to "fit" (default 100: the whole window). Pass the
   * L2 threshold to warn about tasks that would run into the handoff level.
   */
  readonly ceilingPercent?: number;
}

/** The history's correction of the baseline. */
export interface HistoryCorrection {
  /** Samples available (after validation). */
  readonly samples: number;
  /** Median actual/baseline ratio of the nearest neighbours, clamped to {@link RATIO_BOUNDS}. */
  readonly ratio: number;
  /** 0–1: how much of the ratio was applied. */
  readonly weight: number;
}

/** The estimate of one task. JSON-ready. */
export interface TaskEstimate {
  /** Estimated context tokens the task will add. */
  readonly tokens: number;
  /** tokens / window, percent, one decimal. */
  readonly percentOfWindow: number;
  readonly band: TaskBand;
  /** Tokens left before the ceiling (window × ceilingPercent − used, at least 0). */
  readonly remainingTokens: number;
  /** remainingTokens / window, percent, one decimal. */
  readonly remainingPercent: number;
  /** True when the task fits the remaining budget (EST-002 warns otherwise). */
  readonly fits: boolean;
  readonly recommendation: EstimateRecommendation;
  /** Which signals drove the estimate, largest contribution first. */
  readonly reasons: readonly EstimateReason[];
  readonly features: TaskFeatures;
  /** The baseline before the history's correction. */
  readonly baselineTokens: number;
  /** Present when the history had enough samples to correct the baseline. */
  readonly correction?: HistoryCorrection;
}

/**
 * Estimate a task's context cost before it starts (EST-001..003). Deterministic, no model calls: a
 * baseline from the prompt's and the plan's features ({@link baselineEstimate}), scaled by the
 * project's own history once it has {@link MIN_HISTORY_SAMPLES} samples: the median ratio of actual to
 * baseline tokens among the {@link NEIGHBOURS} past tasks most similar in *kind* (prompt length, paths,
 * list items, scope words), blended in with a weight growing to 1 at {@link FULL_WEIGHT_SAMPLES}.
 *
 * Plan open items are volume, not kind: they are left out of the similarity on purpose, so the ratio
 * does not depend on them and more open items never estimate less.
 *
 * @throws RangeError when `window` is not a positive finite number.
 */
export function estimateTask(input: EstimateTaskInput): TaskEstimate {
  if (!(Number.isFinite(input.window) && input.window > 0)) throw new RangeError(`window must be a positive number of tokens, got ${input.window}`);
  const window = input.window;
  const used = Number.isFinite(input.used) && input.used > 0 ? input.used : 0;
  const ceiling = input.ceilingPercent !== undefined && Number.isFinite(input.ceilingPercent) ? Math.min(100, Math.max(0, input.ceilingPercent)) : 100;

  const features = extractTaskFeatures(input.prompt, input.planText);
  const baseline = baselineEstimate(features);
  const reasons = [...baseline.reasons];
  let tokens = baseline.tokens;
  const correction = historyCorrection(features, input.history);
  if (correction !== undefined) {
    const factor = 1 - correction.weight + correction.weight * correction.ratio;
    const corrected = Math.round(baseline.tokens * factor);
    reasons.push({
      signal: 'history',
      detail: `${plural(correction.samples, 'past turn')} of this project: similar tasks used ×${correction.ratio.toFixed(2)} the baseline (weight ${correction.weight.toFixed(2)})`,
      tokens: corrected - baseline.tokens,
    });
    tokens = corrected;
  }

  const percentOfWindow = round1((tokens / window) * 100);
  const band: TaskBand = taskBandOf(percentOfWindow);
  const remainingTokens = Math.max(0, Math.floor((window * ceiling) / 100) - used);
  const fits = tokens <= remainingTokens;
  const recommendation: EstimateRecommendation =
    band === 'large' ? 'shard-first' : !fits ? 'checkpoint-first' : band === 'medium' ? 'consider-sharding' : 'proceed';
  reasons.sort((a, b) => Math.abs(b.tokens) - Math.abs(a.tokens));
  return {
    tokens,
    percentOfWindow,
    band,
    remainingTokens,
    remainingPercent: round1((remainingTokens / window) * 100),
    fits,
    recommendation,
    reasons,
    features,
    baselineTokens: baseline.tokens,
    ...(correction !== undefined ? { correction } : {}),
  };
}

/** The history's correction for a task with `features`, or undefined with too few usable samples. */
export function historyCorrection(features: TaskFeatures, history: readonly TaskHistorySample[]): HistoryCorrection | undefined {
  const usable = history.slice(-MAX_HISTORY_SAMPLES).filter((s) => s.actualTokens > 0);
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

/** The task's kind: log-scaled so "3 vs 6 paths" weighs like "10 vs 20". Plan items left out (see above). */
function kindVector(f: TaskFeatures): number[] {
  return [Math.log1p(f.promptChars / 100), Math.log1p(f.pathMentions), Math.log1p(f.bulletItems), f.broadScope, f.narrowScope > 0 ? 1 : 0];
}

function distance(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += ((a[i] as number) - (b[i] as number)) ** 2;
  return Math.sqrt(sum);
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
