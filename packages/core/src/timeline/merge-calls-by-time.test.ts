import { describe, expect, it } from 'vitest';
import { mergeCallsByTime, sortCallsByTime } from './merge-calls-by-time.ts';
import type { ToolCall } from './tool-call.ts';

const T = (seconds: number): string => new Date(Date.UTC(2026, 10, 22, 2, 0, 0) + seconds * 1000).toISOString();

describe('mergeCallsByTime', () => {
  const call = (id: string, timestamp?: string): ToolCall => ({ id, kind: 'other', rawName: 'X', input: {}, paths: [], outcome: 'success', ...(timestamp ? { timestamp } : {}) });
  const ids = (calls: readonly ToolCall[]): string[] => calls.map((c) => c.id);

  it('keeps the main order, puts each extra call before the first strictly later main call, ties after', () => {
    expect(ids(mergeCallsByTime([call('m1', T(1)), call('m2', T(3)), call('m3', T(5))], [call('x1', T(0)), call('x2', T(3)), call('x3', T(4)), call('x4', T(9))]))).toEqual([
      'x1',
      'm1',
      'm2',
      'x2',
      'x3',
      'm3',
      'x4',
    ]);
  });

  it('calls without a time keep their place', () => {
    expect(ids(mergeCallsByTime([call('m1', T(1)), call('m2'), call('m3', T(5))], [call('x1', T(2)), call('x2')]))).toEqual(['m1', 'm2', 'x1', 'x2', 'm3']);
    expect(ids(mergeCallsByTime([call('m1')], []))).toEqual(['m1']);
  });

  it('sortCallsByTime is stable and keeps an untimed call behind the one before it', () => {
    expect(ids(sortCallsByTime([call('a1', T(5)), call('a2'), call('b1', T(1)), call('b2', T(5))]))).toEqual(['b1', 'a1', 'a2', 'b2']);
  });
});
