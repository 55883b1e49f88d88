import { plural, type EstimateReason } from './baseline-model.ts';
import type { EstimateBasisKind } from './estimate-basis.ts';
import type { HistoryCorrection } from './history-correction.ts';
import { openPlanItems } from './parse-plan-items.ts';
import { priceItems, priceTask } from './price-items.ts';
import { choosePromptBasis, type PromptBasis } from './prompt-basis.ts';
import { extractTaskFeatures, type TaskFeatures } from './task-features.ts';
import type { TaskHistorySample } from './task-history.ts';

import { taskBandOf, type TaskBand } from './task-band.ts';

export { BAND_LIMITS, type TaskBand } from './task-band.ts';
export { FULL_WEIGHT_SAMPLES, historyCorrection, MAX_HISTORY_SAMPLES, MIN_HISTORY_SAMPLES, NEIGHBOURS, RATIO_BOUNDS, type HistoryCorrection } from './history-correction.ts';

/**
 * What to do about a task:
 * - `proceed`: small and fits (P4 "< 30 %: execute normally");
 * - `consider-sharding`: medium and fits (P4 "30–60 %: consider sharding");
 * - `shard-first`: large (P4 "> 60 %: must shard before starting"; SHD-002);
 * - `checkpoint-first`: small or medium but more than the remaining budget (EST-002): hand off and
 *   start it in a fresh session, or shard it.
 */
export type EstimateRecommendation = 'proceed' | 'consider-sharding' | 'shard-first' | 'checkpoint-first';

/** Input of {@link estimateTask}. */
export interface EstimateTaskInput {
  /** The user's prompt (untrusted; bounded by the feature extraction). */
  readonly prompt: string;
  /** Text of the plan file (or the current shard) the session works through, when there is one. */
  readonly planText?: string;
  /** Repository-relative names of that plan (and shard file): a prompt naming one asks for the plan. */
  readonly planFiles?: readonly string[];
  /** The caller asked for the plan itself (`estimate --plan`): a prompt about nothing in it prices the plan. */
  readonly planRequested?: boolean;
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

/** A plan item an estimate priced. */
export interface EstimatedItemRef {
  readonly line: number;
  readonly text: string;
  readonly tokens: number;
}

/** What the estimate priced ({@link choosePromptBasis}) and the items it took. JSON-ready. */
export interface EstimateBasis {
  readonly kind: EstimateBasisKind;
  readonly why: PromptBasis['why'];
  /** The plan items priced (none for `prompt`). */
  readonly items: readonly EstimatedItemRef[];
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
  /** What was priced: the prompt, the current item, named items or the plan. */
  readonly basis: EstimateBasis;
  /** Which signals drove the estimate, largest contribution first. */
  readonly reasons: readonly EstimateReason[];
  /** The prompt's features; `planOpenItems` counts the plan items priced (0 for a prompt-only estimate). */
  readonly features: TaskFeatures;
  /** The baseline before the history's correction. */
  readonly baselineTokens: number;
  /** Present when the history corrected the prompt's own price. */
  readonly correction?: HistoryCorrection;
}

const BASIS_DETAIL: Record<PromptBasis['why'], string> = {
  'no-plan': 'no plan',
  'no-open-items': 'the plan has no open item',
  'not-about-the-plan': 'the prompt is not about the plan',
  acknowledgement: 'an acknowledgement continues the current item',
  'next-item': 'the prompt asks for the next item',
  named: 'the prompt names',
  'plan-named': 'the prompt asks for the plan',
  'plan-requested': 'the plan was asked for',
};

/**
 * Estimate a task's context cost before it starts (EST-001..003). Deterministic, no model calls.
 * First what to price ({@link choosePromptBasis}): the prompt alone unless it asks for the plan's
 * work (then the current item, the items it names, or all open items). Then one model prices it
 * ({@link priceTask}, {@link priceItems}): a baseline from the features, scaled by the project's
 * history of like tasks. With plan items, the estimate is the larger of the prompt's own price and
 * the items' (the prompt describes the same work: adding both would count it twice), so the same plan
 * gives the same number here and in `shard`.
 *
 * @throws RangeError when `window` is not a positive finite number.
 */
export function estimateTask(input: EstimateTaskInput): TaskEstimate {
  if (!(Number.isFinite(input.window) && input.window > 0)) throw new RangeError(`window must be a positive number of tokens, got ${input.window}`);
  const window = input.window;
  const used = Number.isFinite(input.used) && input.used > 0 ? input.used : 0;
  const ceiling = input.ceilingPercent !== undefined && Number.isFinite(input.ceilingPercent) ? Math.min(100, Math.max(0, input.ceilingPercent)) : 100;

  const promptFeatures = extractTaskFeatures(input.prompt);
  const own = priceTask(promptFeatures, input.history);
  const chosen = choosePromptBasis(
    input.prompt,
    input.planText === undefined ? undefined : { files: input.planFiles ?? [], openItems: openPlanItems(input.planText), ...(input.planRequested === true ? { requested: true } : {}) },
  );
  const priced = chosen.kind === 'prompt' ? undefined : priceItems(chosen.items, input.history);
  const basis: EstimateBasis = { kind: chosen.kind, why: chosen.why, items: (priced?.items ?? []).map(({ line, text, tokens }) => ({ line, text, tokens })) };
  const features: TaskFeatures = { ...promptFeatures, planOpenItems: basis.items.length };

  let tokens = own.tokens;
  let reasons: EstimateReason[] = [...own.reasons];
  let correction = own.correction;
  let baselineTokens = own.baselineTokens;
  if (priced !== undefined && priced.totalTokens >= own.tokens) {
    const what = chosen.kind === 'items' ? `${BASIS_DETAIL.named} ${plural(priced.items.length, 'plan item')}` : `${BASIS_DETAIL[chosen.why]}: ${plural(priced.items.length, 'open plan item')}`;
    tokens = priced.totalTokens;
    baselineTokens = priced.totalTokens;
    reasons = [{ signal: 'plan-items', detail: `${what}, each priced as a task`, tokens: priced.totalTokens }];
    correction = undefined;
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
    basis,
    reasons,
    features,
    baselineTokens,
    ...(correction !== undefined ? { correction } : {}),
  };
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
