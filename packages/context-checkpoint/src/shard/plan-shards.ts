import { openPlanItems, type PlanItem } from '../estimate/parse-plan-items.ts';
import { priceItems, type EstimatedPlanItem } from '../estimate/price-items.ts';
import { BAND_LIMITS, taskBandOf, type TaskBand } from '../estimate/task-band.ts';
import type { TaskHistorySample } from '../estimate/task-history-schema.ts';
import { slugify } from './slugify.ts';

export type { EstimatedPlanItem } from '../estimate/price-items.ts';

/** Tokens one plan item will cost (a test's or a caller's own model; the default is {@link priceItems}). */
export type ItemEstimator = (item: PlanItem) => number;

/** Budget of {@link planShards}. */
export interface ShardBudget {
  /** Context window in tokens (> 0). */
  readonly window: number;
  /**
   * Largest shard, percent of the window (default 30: seed 004 P4's "< 30 %: execute normally", so
   * each shard is a task one fresh session runs without a checkpoint).
   */
  readonly shardPercent?: number;
}

/** What P4 says to do with the whole plan. */
export type ShardAction = 'execute' | 'consider-sharding' | 'must-shard';

/** One shard: consecutive open items of the plan. */
export interface Shard {
  /** 1-based. */
  readonly number: number;
  readonly items: readonly EstimatedPlanItem[];
  readonly tokens: number;
  /** Percent of the window, one decimal. */
  readonly percentOfWindow: number;
  /** The first item's text, for the heading. */
  readonly title: string;
  /** File-name slug of the title. */
  readonly slug: string;
  /** True when a single item alone is over the shard limit (it cannot be split here; split the item). */
  readonly oversized: boolean;
}

/** The result of {@link planShards}. JSON-ready. */
export interface ShardPlan {
  readonly openItems: number;
  readonly totalTokens: number;
  readonly percentOfWindow: number;
  readonly band: TaskBand;
  readonly action: ShardAction;
  /** Largest shard in tokens. */
  readonly shardLimitTokens: number;
  /** One shard (the whole plan) when it is small; empty when nothing is open. */
  readonly shards: readonly Shard[];
}

/** Input of {@link planShards}. */
export interface PlanShardsInput {
  /** Markdown of the plan file (untrusted; bounded by the item parser). */
  readonly planText: string;
  readonly budget: ShardBudget;
  /** The project's task history: corrects each item's price as it corrects a prompt's (default none). */
  readonly history?: readonly TaskHistorySample[];
  /** Replaces the estimator's model ({@link priceItems}); for tests of the splitting alone. */
  readonly estimator?: ItemEstimator;
}

/**
 * Split a plan's open items into shards sized to the budget (SHD-001, P4). Items keep their order
 * (a plan's order is its dependency order) and are never split. The plan as a whole is classified by
 * P4: under 30 % of the window it is one shard (execute normally); 30–60 % "consider sharding"; over
 * 60 % "must shard". The shards are the fewest that keep each under the shard limit (greedy, optimal
 * for consecutive items), then balanced: each as close to an even share as the limit allows (so 70 %
 * of evenly sized items is three shards of 21–28 %, not 28 + 28 + 14).
 *
 * @throws RangeError when the window is not a positive finite number.
 */
export function planShards(input: PlanShardsInput): ShardPlan {
  const { window } = input.budget;
  if (!(Number.isFinite(window) && window > 0)) throw new RangeError(`window must be a positive number of tokens, got ${window}`);
  const shardPercent = clamp(input.budget.shardPercent ?? BAND_LIMITS.small, 1, 100);
  const limit = Math.max(1, Math.floor((window * shardPercent) / 100));
  const open = openPlanItems(input.planText);
  const estimator = input.estimator;
  // One model with `estimate` and the prompt hook (priceItems), so a plan has one price everywhere.
  const items: EstimatedPlanItem[] =
    estimator === undefined
      ? [...priceItems(open, input.history ?? []).items]
      : open.map((item) => {
          const t = estimator(item);
          return { ...item, tokens: Number.isFinite(t) && t > 0 ? Math.round(t) : 0 };
        });
  const total = items.reduce((sum, item) => sum + item.tokens, 0);
  const percent = round1((total / window) * 100);
  const band: TaskBand = taskBandOf(percent);
  const action: ShardAction = band === 'small' ? 'execute' : band === 'medium' ? 'consider-sharding' : 'must-shard';

  let groups: EstimatedPlanItem[][];
  if (items.length === 0) groups = [];
  else if (band === 'small') groups = [items];
  else groups = balanced(items, limit, greedy(items, limit).length);
  const shards = groups.map((group, index): Shard => {
    const tokens = group.reduce((sum, item) => sum + item.tokens, 0);
    const title = (group[0] as EstimatedPlanItem).text;
    return {
      number: index + 1,
      items: group,
      tokens,
      percentOfWindow: round1((tokens / window) * 100),
      title,
      slug: slugify(title, 'shard'),
      oversized: group.length === 1 && tokens > limit,
    };
  });
  return { openItems: items.length, totalTokens: total, percentOfWindow: percent, band, action, shardLimitTokens: limit, shards };
}

/**
 * `count` consecutive groups, each as close to an even share of what is left as the cap allows: a
 * group takes the next item while that brings it closer to the share (ties take it), and must take it
 * when the rest would otherwise not fit in the groups that remain. `count` is the greedy minimum, so
 * the rest always fits: a group ends early only after checking, and at the cap exactly where greedy
 * would end it.
 */
function balanced(items: readonly EstimatedPlanItem[], cap: number, count: number): EstimatedPlanItem[][] {
  const groups: EstimatedPlanItem[][] = [];
  let i = 0;
  let rest = items.reduce((sum, item) => sum + item.tokens, 0);
  for (let left = count; left > 0 && i < items.length; left -= 1) {
    if (left === 1) {
      groups.push(items.slice(i));
      break;
    }
    const share = rest / left;
    const group = [items[i] as EstimatedPlanItem];
    let sum = (items[i] as EstimatedPlanItem).tokens;
    i += 1;
    while (i < items.length) {
      const next = (items[i] as EstimatedPlanItem).tokens;
      if (sum + next > cap) break;
      const closer = Math.abs(sum + next - share) <= Math.abs(sum - share);
      if (!closer && greedy(items.slice(i), cap).length <= left - 1) break;
      group.push(items[i] as EstimatedPlanItem);
      sum += next;
      i += 1;
    }
    groups.push(group);
    rest -= sum;
  }
  return groups;
}

/** Consecutive groups each at most `cap` tokens; an item over the cap is a group of its own. */
function greedy(items: readonly EstimatedPlanItem[], cap: number): EstimatedPlanItem[][] {
  const groups: EstimatedPlanItem[][] = [];
  let current: EstimatedPlanItem[] = [];
  let sum = 0;
  for (const item of items) {
    if (current.length > 0 && sum + item.tokens > cap) {
      groups.push(current);
      current = [];
      sum = 0;
    }
    current.push(item);
    sum += item.tokens;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** SHD-002: suggest sharding when a task is over 60 % of the window. Takes an estimate or a percentage. */
export function shouldSuggestSharding(estimate: { readonly percentOfWindow: number } | number): boolean {
  const percent = typeof estimate === 'number' ? estimate : estimate.percentOfWindow;
  return Number.isFinite(percent) && percent > BAND_LIMITS.medium;
}

function clamp(n: number, min: number, max: number): number {
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : min;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
