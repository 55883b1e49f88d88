import { describe, expect, it } from 'vitest';
import { estimateAccuracy, median } from './estimate-accuracy.ts';

describe('estimateAccuracy (EST-004)', () => {
  it('median absolute percentage error, share within ±25 %, median ratio', () => {
    const a = estimateAccuracy([
      { estimatedTokens: 40_000, actualTokens: 36_000 }, // 11.1 %
      { estimatedTokens: 20_000, actualTokens: 40_000 }, // 50 %
      { estimatedTokens: 12_500, actualTokens: 10_000 }, // 25 % exactly: within
      { estimatedTokens: 30_000, actualTokens: 10_000 }, // 200 %
    ]);
    expect(a.samples).toBe(4);
    expect(a.medianAbsPercentError).toBe(37.5); // (25 + 50) / 2
    expect(a.withinQuarterShare).toBe(0.5);
    expect(a.medianRatio).toBe(1.181); // ratios 0.5, 1.111, 1.25, 3
  });

  it('leaves out outcomes without a positive actual; none left is no accuracy', () => {
    expect(estimateAccuracy([{ estimatedTokens: 5, actualTokens: 0 }, { estimatedTokens: Number.NaN, actualTokens: 3 }])).toEqual({ samples: 0 });
  });

  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
