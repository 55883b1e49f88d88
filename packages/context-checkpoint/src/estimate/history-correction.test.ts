import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baselineEstimate } from './baseline-model.ts';
import { median } from './estimate-accuracy.ts';
import { isLearnableSample } from './estimate-basis.ts';
import { FULL_WEIGHT_SAMPLES, historyCorrection, MIN_HISTORY_SAMPLES, NEIGHBOURS, prepareHistory, RATIO_BOUNDS } from './history-correction.ts';
import type { TaskFeatures } from './task-features.ts';
import type { TaskHistorySample } from './task-history-schema.ts';

/** The definition, written the slow way: sort every like-for-like sample by distance, newer first on ties. */
function reference(features: TaskFeatures, history: readonly TaskHistorySample[]): { samples: number; ratio: number; weight: number } | undefined {
  const kind = (f: TaskFeatures) => [Math.log1p(f.promptChars / 100), Math.log1p(f.pathMentions), Math.log1p(f.bulletItems), f.broadScope, f.narrowScope > 0 ? 1 : 0];
  const usable = history.slice(-500).filter((s) => s.actualTokens > 0 && isLearnableSample(s));
  if (usable.length < MIN_HISTORY_SAMPLES) return undefined;
  const t = kind(features);
  const ranked = usable
    .map((s, index) => ({ s, index, d: Math.sqrt(kind(s.features).reduce((sum, v, i) => sum + (v - (t[i] as number)) ** 2, 0)) }))
    .sort((a, b) => a.d - b.d || b.index - a.index)
    .slice(0, NEIGHBOURS);
  const ratio = Math.min(RATIO_BOUNDS.max, Math.max(RATIO_BOUNDS.min, median(ranked.map(({ s }) => s.actualTokens / Math.max(1, baselineEstimate(s.features).tokens)))));
  return { samples: usable.length, ratio: Math.round(ratio * 1000) / 1000, weight: Math.min(1, usable.length / FULL_WEIGHT_SAMPLES) };
}

const features = fc.record({ promptChars: fc.nat(3000), pathMentions: fc.nat(8), bulletItems: fc.nat(5), broadScope: fc.nat(3), narrowScope: fc.nat(2), planOpenItems: fc.nat(3) });
const sample = fc.record({
  features,
  actualTokens: fc.nat(200_000),
  basis: fc.constantFrom(undefined, 'prompt', 'current-item', 'items', 'plan'),
});

describe('historyCorrection', () => {
  it('equals the slow definition (sort everything) on random histories, prepared once or not', () => {
    fc.assert(
      fc.property(features, fc.array(sample, { maxLength: 60 }), (f, raw) => {
        const history: TaskHistorySample[] = raw.map((s, i) => ({ at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), estimatedTokens: 1, features: s.features, actualTokens: s.actualTokens, ...(s.basis !== undefined ? { basis: s.basis } : {}) }));
        const expected = reference(f, history);
        expect(historyCorrection(f, history)).toEqual(expected);
        expect(historyCorrection(f, prepareHistory(history))).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});
