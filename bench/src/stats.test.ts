import { describe, expect, it } from 'vitest';
import { formatBytes, GiB, MiB, summarize } from './stats.ts';

describe('summarize', () => {
  it('takes the middle value of an odd count and the mean of the two middle values of an even count', () => {
    expect(summarize([5, 1, 3]).median).toBe(3);
    expect(summarize([4, 1, 3, 2]).median).toBe(2.5);
  });

  it('p90 is the nearest rank: the 9th of 10 values, the maximum of fewer than 10', () => {
    expect(summarize([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).p90).toBe(9);
    expect(summarize([1, 2, 3]).p90).toBe(3);
  });

  it('ignores values that are not finite and reports NaN for nothing', () => {
    expect(summarize([Number.NaN, 2, Number.POSITIVE_INFINITY]).median).toBe(2);
    expect(summarize([]).n).toBe(0);
    expect(summarize([]).median).toBeNaN();
  });
});

describe('formatBytes', () => {
  it('names the sizes of the matrix', () => {
    expect(formatBytes(MiB)).toBe('1 MiB');
    expect(formatBytes(100 * MiB)).toBe('100 MiB');
    expect(formatBytes(GiB)).toBe('1 GiB');
  });
});
