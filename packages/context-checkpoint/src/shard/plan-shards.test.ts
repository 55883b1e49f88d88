import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTask } from '../estimate/estimate-task.ts';
import { openPlanItems } from '../estimate/parse-plan-items.ts';
import { extractTaskFeatures } from '../estimate/task-features.ts';
import type { TaskHistorySample } from '../estimate/task-history.ts';
import { planShards, shouldSuggestSharding, type ItemEstimator } from './plan-shards.ts';

const PLAN = readFileSync(join(import.meta.dirname, '../estimate/__fixtures__/oauth-plan.md'), 'utf8');
const WINDOW = 200_000;

/** A spec of `n` open items, each estimated at `tokens` by {@link fixed}. */
const spec = (n: number): string => ['# Spec', '', ...Array.from({ length: n }, (_, i) => `- [ ] Step ${i + 1}: implement part ${i + 1}`)].join('\n');
const fixed = (tokens: number): ItemEstimator => () => tokens;

describe('planShards (SHD-001, P4)', () => {
  it('the seed scenario "Shard Suggestion": a spec of ~70 % of the window → suggested, three balanced shards', () => {
    // 10 items of 14k = 140k = 70 %.
    const plan = planShards({ planText: spec(10), budget: { window: WINDOW }, estimator: fixed(14_000) });
    expect(plan.percentOfWindow).toBe(70);
    expect(plan.action).toBe('must-shard');
    expect(shouldSuggestSharding(plan)).toBe(true);
    expect(plan.shards.map((s) => s.items.length)).toEqual([3, 4, 3]);
    expect(plan.shards.map((s) => s.percentOfWindow)).toEqual([21, 28, 21]);
    expect(plan.shards.map((s) => s.number)).toEqual([1, 2, 3]);
    expect(plan.shards[0]?.slug).toBe('step-1-implement-part-1');
    // Every shard is a "< 30 %: execute normally" task.
    for (const shard of plan.shards) expect(shard.tokens).toBeLessThanOrEqual(plan.shardLimitTokens);
  });

  it('under 30 %: one shard, execute normally; 30–60 %: shards offered, "consider sharding"', () => {
    const small = planShards({ planText: spec(4), budget: { window: WINDOW }, estimator: fixed(10_000) });
    expect(small.action).toBe('execute');
    expect(small.shards).toHaveLength(1);
    expect(shouldSuggestSharding(small)).toBe(false);
    const medium = planShards({ planText: spec(8), budget: { window: WINDOW }, estimator: fixed(12_000) });
    expect(medium.action).toBe('consider-sharding');
    expect(medium.shards.length).toBe(2);
    expect(shouldSuggestSharding(medium)).toBe(false);
  });

  it('only open items are sharded, in plan order, with the default estimator on a real plan', () => {
    const plan = planShards({ planText: PLAN, budget: { window: 100_000 } });
    const open = openPlanItems(PLAN).map((i) => i.text);
    expect(plan.openItems).toBe(7);
    expect(plan.shards.flatMap((s) => s.items.map((i) => i.text))).toEqual(open);
    expect(plan.shards.length).toBeGreaterThan(1);
  });

  it('an item alone over the limit is its own shard, flagged oversized', () => {
    const sizes = [10_000, 90_000, 10_000, 10_000];
    const plan = planShards({ planText: spec(4), budget: { window: WINDOW }, estimator: (item) => sizes[Number(/Step (\d+)/.exec(item.text)?.[1]) - 1] ?? 0 });
    expect(plan.shards.map((s) => [s.items.length, s.oversized])).toEqual([
      [1, false],
      [1, true],
      [2, false],
    ]);
  });

  it('nothing open, nothing to shard', () => {
    const plan = planShards({ planText: '- [x] done\n', budget: { window: WINDOW } });
    expect(plan.shards).toEqual([]);
    expect(plan.action).toBe('execute');
  });

  it('one model with the estimator (issue 21): the same plan has the same price in `shard` and `estimate`, history included', () => {
    const plan = ['# Plan', ...Array.from({ length: 14 }, (_, i) => `- [ ] Clean up billing step ${i + 1}`), '- [ ] Port src/billing/tax.ts to the new API'].join('\n');
    const f = extractTaskFeatures('Clean up billing step 3');
    const history: TaskHistorySample[] = Array.from({ length: 20 }, (_, i) => ({ at: new Date(Date.UTC(2026, 10, 1, 9, i)).toISOString(), features: f, estimatedTokens: 8_000, actualTokens: 12_000, basis: 'prompt' }));
    for (const h of [[], history]) {
      const shards = planShards({ planText: plan, budget: { window: WINDOW }, history: h });
      const estimate = estimateTask({ prompt: 'Work through the plan', planText: plan, history: h, window: WINDOW, used: 0 });
      expect(estimate.tokens).toBe(shards.totalTokens);
      expect(estimate.percentOfWindow).toBe(shards.percentOfWindow);
      expect(estimate.basis.items.map((i) => i.tokens)).toEqual(shards.shards.flatMap((s) => s.items.map((i) => i.tokens)));
    }
    // The history moved both the same way.
    expect(planShards({ planText: plan, budget: { window: WINDOW }, history }).totalTokens).toBeGreaterThan(planShards({ planText: plan, budget: { window: WINDOW } }).totalTokens);
  });

  it('SHD-002 threshold: over 60 % only', () => {
    expect(shouldSuggestSharding(60)).toBe(false);
    expect(shouldSuggestSharding(60.1)).toBe(true);
    expect(shouldSuggestSharding(estimateTask({ prompt: 'Work through the plan', planText: spec(16), history: [], window: WINDOW, used: 0 }))).toBe(true);
    expect(shouldSuggestSharding(Number.NaN)).toBe(false);
  });

  it('properties: items kept whole and in order, shards within the limit unless a single oversized item, fewest shards', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 120_000 }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 5, max: 60 }), (sizes, shardPercent) => {
        const estimator: ItemEstimator = (item) => sizes[Number(/Step (\d+)/.exec(item.text)?.[1]) - 1] ?? 0;
        const plan = planShards({ planText: spec(sizes.length), budget: { window: WINDOW, shardPercent }, estimator });
        const items = plan.shards.flatMap((s) => s.items.map((i) => i.text));
        expect(items).toEqual(openPlanItems(spec(sizes.length)).map((i) => i.text));
        if (plan.action === 'execute') {
          expect(plan.shards).toHaveLength(1);
          return;
        }
        for (const s of plan.shards) {
          if (s.tokens > plan.shardLimitTokens) {
            expect(s.items).toHaveLength(1);
            expect(s.oversized).toBe(true);
          }
        }
        // Fewest shards: no two neighbours fit together in one shard.
        for (let i = 1; i < plan.shards.length; i += 1) {
          expect((plan.shards[i - 1]?.tokens ?? 0) + (plan.shards[i]?.tokens ?? 0)).toBeGreaterThan(plan.shardLimitTokens);
        }
      }),
      { numRuns: 300 },
    );
  });
});
