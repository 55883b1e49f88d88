import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baselineEstimate } from './baseline-model.ts';
import { openPlanItems } from './parse-plan-items.ts';
import { priceItems } from './price-items.ts';
import { estimateTask, FULL_WEIGHT_SAMPLES, MIN_HISTORY_SAMPLES, RATIO_BOUNDS, type EstimateTaskInput } from './estimate-task.ts';
import { renderEstimateWarning } from './render-estimate.ts';
import { extractTaskFeatures, type TaskFeatures } from './task-features.ts';
import type { TaskHistorySample } from './task-history.ts';

const PLAN = readFileSync(join(import.meta.dirname, '__fixtures__/oauth-plan.md'), 'utf8');
const WINDOW = 200_000;

function input(overrides: Partial<EstimateTaskInput>): EstimateTaskInput {
  return { prompt: 'Fix the typo in README.md', history: [], window: WINDOW, used: 0, ...overrides };
}

/** A past turn whose prompt had `features` and that actually used `ratio` × today's baseline. */
function sample(features: Partial<TaskFeatures>, ratio: number, minute = 0): TaskHistorySample {
  const f: TaskFeatures = { promptChars: 120, pathMentions: 1, bulletItems: 0, broadScope: 0, narrowScope: 0, planOpenItems: 0, ...features };
  const baseline = baselineEstimate(f).tokens;
  return { at: new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString(), features: f, estimatedTokens: baseline, actualTokens: Math.round(baseline * ratio) };
}

describe('estimateTask: bands, budget and recommendations (seed 004, P4, EST-001..003)', () => {
  it('a typo fix in a fresh session is small and proceeds silently', () => {
    const e = estimateTask(input({}));
    expect(e.band).toBe('small');
    expect(e.fits).toBe(true);
    expect(e.recommendation).toBe('proceed');
    expect(renderEstimateWarning(e)).toBeUndefined();
    expect(e.reasons.map((r) => r.signal)).toEqual(['base', 'paths', 'narrow-scope', 'prompt']);
  });

  it('the seed scenario "Task Estimation Warning": 60 % used, a task of ~40 % → warn, suggest sharding or checkpointing, offer to proceed', () => {
    // The rest of the OAuth plan (7 open items, each priced as a task): ~40 % of a 200k window.
    const prompt = 'Implement the remaining tasks of PLAN.md: the callback in src/auth/oauth.ts, then the session in src/auth/session.ts.';
    const e = estimateTask(input({ prompt, planText: PLAN, planFiles: ['PLAN.md'], used: 0.6 * WINDOW }));
    expect(e.percentOfWindow).toBeGreaterThanOrEqual(38);
    expect(e.percentOfWindow).toBeLessThanOrEqual(60);
    expect(e.band).toBe('medium');
    expect(e.remainingPercent).toBe(40);
    expect(e.fits).toBe(false);
    expect(e.recommendation).toBe('checkpoint-first');
    const warning = renderEstimateWarning(e) ?? '';
    expect(warning).toMatch(/may not fit/);
    expect(warning).toMatch(/shard it/);
    expect(warning).toMatch(/checkpoint first/);
    expect(warning).toMatch(/proceed anyway/);
    expect(e.reasons[0]?.signal).toBe('plan-items');
    // The same task in a fresh session fits and only suggests considering shards.
    const fresh = estimateTask(input({ prompt, planText: PLAN, planFiles: ['PLAN.md'], used: 0 }));
    expect(fresh.recommendation).toBe('consider-sharding');
  });

  it('a task over 60 % of the window must be sharded first, whatever is left', () => {
    const plan = Array.from({ length: 14 }, (_, i) => `- [ ] step ${i + 1}: port module ${i + 1}`).join('\n');
    const e = estimateTask(input({ prompt: 'Migrate the remaining modules listed in MIGRATION.md', planText: plan, planFiles: ['MIGRATION.md'] }));
    expect(e.basis).toMatchObject({ kind: 'plan', why: 'plan-named' });
    expect(e.percentOfWindow).toBeGreaterThan(60);
    expect(e.band).toBe('large');
    expect(e.recommendation).toBe('shard-first');
    expect(renderEstimateWarning(e)).toMatch(/over 60 % should be sharded/);
  });

  it('ceilingPercent (the L2 threshold) lowers the budget', () => {
    const atL2 = estimateTask(input({ prompt: 'Continue with the plan in PLAN.md', planText: PLAN, used: 0.3 * WINDOW, ceilingPercent: 85 }));
    expect(atL2.remainingTokens).toBe(110_000);
  });

  it('refuses a window that is not a positive number', () => {
    expect(() => estimateTask(input({ window: 0 }))).toThrow(RangeError);
    expect(() => estimateTask(input({ window: Number.NaN }))).toThrow(RangeError);
  });
});

describe('estimateTask: learning from the project history (EST-004)', () => {
  const prompt = 'Add a --json flag to the report command in src/cli/report.ts';

  it('fewer than MIN_HISTORY_SAMPLES samples leave the baseline alone (start conservative)', () => {
    const history = Array.from({ length: MIN_HISTORY_SAMPLES - 1 }, (_, i) => sample({}, 3, i));
    const e = estimateTask(input({ prompt, history }));
    expect(e.correction).toBeUndefined();
    expect(e.tokens).toBe(e.baselineTokens);
  });

  it('similar past tasks that used 2× the baseline double the estimate at full weight', () => {
    const f = extractTaskFeatures(prompt);
    const similar = Array.from({ length: FULL_WEIGHT_SAMPLES }, (_, i) => sample({ ...f, planOpenItems: 0 }, 2, i));
    // Very different tasks (broad, many paths) that ran at a tenth: not neighbours, ignored.
    const different = Array.from({ length: 10 }, (_, i) => sample({ promptChars: 4000, pathMentions: 30, bulletItems: 20, broadScope: 5 }, 0.1, 30 + i));
    const e = estimateTask(input({ prompt, history: [...different, ...similar] }));
    expect(e.correction).toEqual({ samples: 30, ratio: 2, weight: 1 });
    expect(e.tokens).toBe(e.baselineTokens * 2);
    expect(e.reasons.find((r) => r.signal === 'history')?.tokens).toBe(e.baselineTokens);
  });

  it('the correction is blended in by sample count and bounded', () => {
    const f = extractTaskFeatures(prompt);
    const ten = Array.from({ length: 10 }, (_, i) => sample(f, 100, i));
    const e = estimateTask(input({ prompt, history: ten }));
    expect(e.correction).toEqual({ samples: 10, ratio: RATIO_BOUNDS.max, weight: 10 / FULL_WEIGHT_SAMPLES });
    expect(e.tokens).toBe(Math.round(e.baselineTokens * (0.5 + 0.5 * RATIO_BOUNDS.max)));
  });
});

/** Fourteen open items of ordinary size, no paths: the plan of the measurements. */
const PLAN_14 = ['# Plan: billing cleanup', ...Array.from({ length: 14 }, (_, i) => `- [ ] Clean up billing step ${i + 1}`)].join('\n');

describe('estimateTask: the prompt, not the plan (issue 21)', () => {
  it('"yes" with a plan is the current item (~5 %), not every open item (was 74 %, an oversize warning)', () => {
    const e = estimateTask(input({ prompt: 'yes', planText: PLAN_14, planFiles: ['PLAN.md'] }));
    expect(e.basis).toMatchObject({ kind: 'current-item', why: 'acknowledgement', items: [{ line: 2, text: 'Clean up billing step 1' }] });
    expect(e.features.planOpenItems).toBe(1);
    expect(e.percentOfWindow).toBeLessThan(10);
    expect(e.recommendation).toBe('proceed');
  });

  it('a prompt about something else is priced alone, whatever the plan holds', () => {
    const alone = estimateTask(input({ prompt: 'Fix the typo in README.md' }));
    const withPlan = estimateTask(input({ prompt: 'Fix the typo in README.md', planText: PLAN_14, planFiles: ['PLAN.md'] }));
    expect(withPlan.tokens).toBe(alone.tokens);
    expect(withPlan.basis).toEqual({ kind: 'prompt', why: 'not-about-the-plan', items: [] });
    expect(withPlan.features.planOpenItems).toBe(0);
  });

  it('asking for the plan prices every open item with the shard model: the same number as priceItems', () => {
    const e = estimateTask(input({ prompt: 'Work through PLAN.md', planText: PLAN_14, planFiles: ['PLAN.md'] }));
    expect(e.basis.kind).toBe('plan');
    expect(e.basis.items).toHaveLength(14);
    expect(e.tokens).toBe(priceItems(openPlanItems(PLAN_14), []).totalTokens);
    expect(e.tokens).toBe(e.basis.items.reduce((sum, i) => sum + i.tokens, 0));
  });

  it('a prompt larger than the items it names keeps its own price (the larger of the two, never the sum)', () => {
    const prompt = 'Refactor every caller of step 1 across src/billing/a.ts, src/billing/b.ts, src/billing/c.ts and src/billing/d.ts: clean up billing step 1';
    const e = estimateTask(input({ prompt, planText: PLAN_14 }));
    expect(e.basis).toMatchObject({ kind: 'items', why: 'named' });
    const own = estimateTask(input({ prompt }));
    expect(e.tokens).toBe(Math.max(own.tokens, e.basis.items[0]!.tokens));
    expect(e.tokens).toBe(own.tokens);
  });
});

describe('estimateTask: learning compares like with like (issue 21)', () => {
  // A working session on PLAN_14: acknowledgements, next items, and prompts of its own, each turn's
  // real context growth. Each is recorded as the turn end records it (closePendingEstimate).
  const turns: ReadonlyArray<readonly [string, number]> = [
    ['Look at how invoices are rounded in src/billing/invoice.ts', 14_000],
    ['yes', 6_000],
    ['ok go on', 4_000],
    ['Fix the failing test in src/billing/tax.test.ts', 12_000],
    ['continue with the next item', 9_000],
    ['yes', 3_000],
    ['Rename the ledger helper in src/billing/ledger.ts and update its callers in src/billing/report.ts', 22_000],
    ['sure', 5_000],
    ['Add a test for negative amounts in src/billing/invoice.test.ts', 13_000],
    ['go ahead', 4_000],
    ['Why does src/billing/tax.ts round half up?', 9_000],
    ['yes please', 7_000],
    ['Update the changelog in CHANGELOG.md for the rounding fix', 9_000],
    ['next item', 8_000],
    ['Add the currency column to src/billing/report.ts', 11_000],
    ['ok', 3_000],
    ['Extract the tax table from src/billing/tax.ts into src/billing/tax-table.ts', 18_000],
    ['continue', 4_000],
    ['Document the rounding rule in docs/billing.md', 8_000],
    ['yes', 5_000],
  ];
  const history: TaskHistorySample[] = turns.map(([prompt, actualTokens], minute) => {
    const e = estimateTask(input({ prompt, planText: PLAN_14, planFiles: ['PLAN.md'] }));
    return { at: new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString(), features: e.features, estimatedTokens: e.tokens, basis: e.basis.kind, actualTokens };
  });
  const REFACTOR = [
    'Refactor the entire billing module across src/billing/ and migrate all callers:',
    '- split src/billing/invoice.ts',
    '- move src/billing/tax.ts behind an interface',
    '- port src/billing/ledger.ts',
    '- update every caller in src/api/',
  ].join('\n');

  it('after a session of real-looking turns the correction stays near 1 and a large refactor is not "proceed" (was ×0.25, 24 %)', () => {
    const fresh = estimateTask(input({ prompt: REFACTOR }));
    const learned = estimateTask(input({ prompt: REFACTOR, planText: PLAN_14, planFiles: ['PLAN.md'], history }));
    expect(learned.basis.kind).toBe('prompt');
    // Only the nine prompt-only turns taught it: the eleven acknowledgements and next items did not.
    expect(learned.correction?.samples).toBe(9);
    expect(learned.correction!.ratio).toBeGreaterThan(0.6);
    expect(learned.correction!.ratio).toBeLessThan(1.6);
    expect(learned.recommendation).not.toBe('proceed');
    expect(learned.band).toBe(fresh.band);
    // The correction of small prompts the same session teaches holds as well.
    const small = estimateTask(input({ prompt: 'Fix the failing test in src/billing/invoice.test.ts', history }));
    expect(small.tokens).toBeGreaterThan(8_000);
  });

  it('samples whose estimate priced plan items never teach, old ones (no basis) included', () => {
    const planTurns: TaskHistorySample[] = Array.from({ length: 20 }, (_, i) => ({ ...sample({ planOpenItems: 14 }, 0.05, i), basis: i % 2 === 0 ? ('plan' as const) : undefined }));
    const itemTurns: TaskHistorySample[] = Array.from({ length: 20 }, (_, i) => ({ ...sample({ planOpenItems: 1 }, 0.05, 30 + i), basis: 'current-item' as const }));
    const e = estimateTask(input({ prompt: REFACTOR, history: [...planTurns, ...itemTurns] }));
    expect(e.correction).toBeUndefined();
    expect(e.tokens).toBe(e.baselineTokens);
  });

  it('the correction is bounded: turns that all ran at a tenth never take a task below half its baseline', () => {
    const f = extractTaskFeatures(REFACTOR);
    const cheap = Array.from({ length: FULL_WEIGHT_SAMPLES }, (_, i) => sample(f, 0.1, i));
    const e = estimateTask(input({ prompt: REFACTOR, history: cheap }));
    expect(RATIO_BOUNDS.min).toBe(0.5);
    expect(e.correction).toMatchObject({ ratio: 0.5, weight: 1 });
    expect(e.tokens).toBe(Math.round(e.baselineTokens * 0.5));
  });
});

describe('estimateTask properties', () => {
  const features = fc.record({
    promptChars: fc.nat(5000),
    pathMentions: fc.nat(50),
    bulletItems: fc.nat(100),
    broadScope: fc.nat(16),
    narrowScope: fc.nat(9),
    planOpenItems: fc.nat(500),
  });
  // Plan sizes in the history overlap those of the prompts below, so that a similarity that looked at
  // them would pick other neighbours for more items.
  const history = fc.array(fc.tuple(features.map((f) => ({ ...f, planOpenItems: f.planOpenItems % 25 })), fc.double({ min: 0.05, max: 10, noNaN: true })).map(([f, r]) => sample(f, r)), { maxLength: 40 });
  const prompt = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.array(fc.constantFrom('Refactor', 'all', 'src/a.ts', 'docs/', '\n- item', 'typo', 'fix', 'the', 'README.md', '\n1. step'), { maxLength: 60 }).map((w) => w.join(' ')),
  );
  const planLine = fc.constantFrom('- [ ] add the parser', '- [x] done already', '1. TODO: wire src/cli.ts', '## heading', 'prose', '* [ ] refactor all callers');

  it('asked for the plan, more open plan items never estimate less (with or without history)', () => {
    fc.assert(
      fc.property(prompt, fc.array(planLine, { maxLength: 30 }), fc.integer({ min: 1, max: 10 }), history, (p, lines, extra, h) => {
        const plan = lines.join('\n');
        const more = `${plan}\n${Array.from({ length: extra }, (_, i) => `- [ ] extra item ${i}`).join('\n')}`;
        const ask = `Work through the whole plan. ${p}`;
        const a = estimateTask(input({ prompt: ask, planText: plan, history: h }));
        const b = estimateTask(input({ prompt: ask, planText: more, history: h }));
        expect(b.features.planOpenItems).toBeGreaterThan(a.features.planOpenItems);
        expect(b.tokens).toBeGreaterThanOrEqual(a.tokens);
      }),
      { numRuns: 300 },
    );
  });

  it('bounds: positive tokens, consistent percent/band/fits, remaining within the window, deterministic', () => {
    fc.assert(
      fc.property(prompt, fc.array(planLine, { maxLength: 30 }), history, fc.integer({ min: 1000, max: 2_000_000 }), fc.double({ min: 0, max: 1.5, noNaN: true }), (p, lines, h, window, usedShare) => {
        const i = input({ prompt: p, planText: lines.join('\n'), history: h, window, used: Math.round(usedShare * window) });
        const e = estimateTask(i);
        expect(Number.isInteger(e.tokens)).toBe(true);
        expect(e.tokens).toBeGreaterThan(0);
        // The history scales the baseline within RATIO_BOUNDS (an item-priced estimate is their sum).
        expect(e.tokens).toBeGreaterThanOrEqual(Math.floor(e.baselineTokens * RATIO_BOUNDS.min));
        expect(e.tokens).toBeLessThanOrEqual(Math.ceil(e.baselineTokens * RATIO_BOUNDS.max));
        expect(e.percentOfWindow).toBeCloseTo((e.tokens / window) * 100, 0);
        expect(e.band).toBe(e.percentOfWindow < 30 ? 'small' : e.percentOfWindow <= 60 ? 'medium' : 'large');
        expect(e.remainingTokens).toBeGreaterThanOrEqual(0);
        expect(e.remainingTokens).toBeLessThanOrEqual(window);
        expect(e.fits).toBe(e.tokens <= e.remainingTokens);
        if (e.band === 'large') expect(e.recommendation).toBe('shard-first');
        expect(estimateTask(i)).toEqual(e);
      }),
      { numRuns: 300 },
    );
  });
});
