import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baselineEstimate } from './baseline-model.ts';
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

  it('the seed scenario "Task Estimation Warning": 55 % used, a task of ~50 % → warn, suggest sharding or checkpointing, offer to proceed', () => {
    // The rest of the OAuth plan (7 open items), naming its files: ~50 % of a 200k window.
    const prompt = 'Implement the remaining tasks of PLAN.md: the callback in src/auth/oauth.ts, then the session in src/auth/session.ts.';
    const e = estimateTask(input({ prompt, planText: PLAN, used: 0.55 * WINDOW }));
    expect(e.percentOfWindow).toBeGreaterThanOrEqual(40);
    expect(e.percentOfWindow).toBeLessThanOrEqual(60);
    expect(e.band).toBe('medium');
    expect(e.remainingPercent).toBe(45);
    expect(e.fits).toBe(false);
    expect(e.recommendation).toBe('checkpoint-first');
    const warning = renderEstimateWarning(e) ?? '';
    expect(warning).toMatch(/may not fit/);
    expect(warning).toMatch(/shard it/);
    expect(warning).toMatch(/checkpoint first/);
    expect(warning).toMatch(/proceed anyway/);
    expect(e.reasons[0]?.signal).toBe('plan-items');
    // The same task in a fresh session fits and only suggests considering shards.
    const fresh = estimateTask(input({ prompt, planText: PLAN, used: 0 }));
    expect(fresh.recommendation).toBe('consider-sharding');
  });

  it('a task over 60 % of the window must be sharded first, whatever is left', () => {
    const plan = Array.from({ length: 14 }, (_, i) => `- [ ] step ${i + 1}: port module ${i + 1}`).join('\n');
    const e = estimateTask(input({ prompt: 'Migrate the remaining modules listed in MIGRATION.md', planText: plan }));
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

describe('estimateTask: plan items are volume, not kind', () => {
  it('past small plans that ran over and big plans that ran under never make a bigger plan estimate less', () => {
    const f = extractTaskFeatures('Continue with the plan');
    const history = [
      ...Array.from({ length: 10 }, (_, i) => sample({ ...f, planOpenItems: 2 }, 4, i)),
      ...Array.from({ length: 10 }, (_, i) => sample({ ...f, planOpenItems: 10 }, 0.25, 20 + i)),
    ];
    const plan = (n: number): string => Array.from({ length: n }, (_, i) => `- [ ] step ${i}`).join('\n');
    const two = estimateTask(input({ prompt: 'Continue with the plan', planText: plan(2), history }));
    const ten = estimateTask(input({ prompt: 'Continue with the plan', planText: plan(10), history }));
    expect(ten.correction?.ratio).toBe(two.correction?.ratio);
    expect(ten.tokens).toBeGreaterThan(two.tokens);
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

  it('more open plan items never estimate less (with or without history)', () => {
    fc.assert(
      fc.property(prompt, fc.array(planLine, { maxLength: 30 }), fc.integer({ min: 1, max: 10 }), history, (p, lines, extra, h) => {
        const plan = lines.join('\n');
        const more = `${plan}\n${Array.from({ length: extra }, (_, i) => `- [ ] extra item ${i}`).join('\n')}`;
        const a = estimateTask(input({ prompt: p, planText: plan, history: h }));
        const b = estimateTask(input({ prompt: p, planText: more, history: h }));
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
        // The history scales the baseline within RATIO_BOUNDS.
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
