import { describe, expect, it } from 'vitest';
import { describeError, retryWaitMs, safeText } from './http-with-retry.ts';

describe('retryWaitMs', () => {
  const now = Date.parse('2026-01-07T11:45:00Z');
  it('reads Retry-After in seconds or as an HTTP date, then Linear reset epoch ms; capped at one hour', () => {
    expect(retryWaitMs(new Headers({ 'retry-after': '2' }), now)).toBe(2_000);
    expect(retryWaitMs(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryWaitMs(new Headers({ 'retry-after': 'Wed, 07 Jan 2026 11:45:03 GMT' }), now)).toBe(3_000);
    expect(retryWaitMs(new Headers({ 'x-ratelimit-requests-reset': String(now + 1_234) }), now)).toBe(1_234);
    expect(retryWaitMs(new Headers({ 'x-ratelimit-requests-reset': String(now - 5_000) }), now)).toBe(0);
    expect(retryWaitMs(new Headers({ 'retry-after': '999999' }), now)).toBe(3_600_000);
    expect(retryWaitMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryWaitMs(new Headers(), now)).toBeUndefined();
  });
});

describe('diagnostic text', () => {
  it('is one line without controls, capped', () => {
    expect(safeText('bad\n\u001b[2Jthing')).not.toMatch(/[\n\u001b]/);
    expect(safeText('x'.repeat(500))).toHaveLength(300);
    expect(describeError(Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } }))).toBe('fetch failed (ECONNREFUSED)');
  });
});
