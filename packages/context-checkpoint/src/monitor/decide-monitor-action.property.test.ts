import { readContextLevel } from '../context/read-context-level.ts';
import type { ContextGrowth } from '../context/estimate-context-growth.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideMonitorAction } from './decide-monitor-action.ts';
import { monitorSeverity, type DecideMonitorActionInput, type MonitorLevel } from './monitor-action.ts';

/** Everything but the context size, drawn at random and then held fixed. */
const fixedInputs = fc.record({
  window: fc.integer({ min: 1_000, max: 2_000_000 }),
  taskSize: fc.constantFrom(undefined, 'small' as const, 'medium' as const, 'large' as const),
  announced: fc.subarray<MonitorLevel>(['L1', 'L2', 'L3']),
  deferred: fc.constantFrom(undefined, { upTo: 'L1' as const }, { upTo: 'L2' as const }),
  tokensPerCall: fc.option(fc.double({ min: 0, max: 500_000, noNaN: true }), { nil: undefined }),
  lookaheadCalls: fc.integer({ min: 0, max: 5 }),
  policy: fc.record({
    largeTaskWarnPercent: fc.integer({ min: 0, max: 120 }),
    largeTaskHandoffPercent: fc.integer({ min: 0, max: 120 }),
    smallTaskHandoffPercent: fc.integer({ min: 0, max: 120 }),
    emergencyPercent: fc.integer({ min: 0, max: 120 }),
  }),
});

type Fixed = typeof fixedInputs extends fc.Arbitrary<infer T> ? T : never;

function decideAt(fixed: Fixed, fraction: number) {
  const reading = readContextLevel({ contextTokens: Math.round(fraction * fixed.window) }, { windowTokens: fixed.window });
  const growth: ContextGrowth | undefined =
    fixed.tokensPerCall === undefined ? undefined : { samples: 2, compacted: false, tokensPerCall: fixed.tokensPerCall };
  const input: DecideMonitorActionInput = {
    reading,
    announced: fixed.announced,
    ...(fixed.taskSize ? { taskSize: fixed.taskSize } : {}),
    ...(fixed.deferred ? { deferred: fixed.deferred } : {}),
    ...(growth ? { growth } : {}),
    config: { policy: { ...fixed.policy, lookaheadCalls: fixed.lookaheadCalls } },
  };
  return decideMonitorAction(input);
}

describe('decideMonitorAction properties', () => {
  it('severity never decreases as the context grows, everything else fixed (any policy, even an odd one)', () => {
    fc.assert(
      fc.property(fixedInputs, fc.double({ min: 0, max: 1.2, noNaN: true }), fc.double({ min: 0, max: 1.2, noNaN: true }), (fixed, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(monitorSeverity(decideAt(fixed, high).kind)).toBeGreaterThanOrEqual(monitorSeverity(decideAt(fixed, low).kind));
      }),
      { numRuns: 2000 },
    );
  });

  it('severity is monotone over a sweep of percentages and every rule boundary, for the default policy', () => {
    // Every 0.5 % from 0 to 110 %, and each boundary (60, 70, 80, 85, 90, 95 %) one token either side.
    const tokens = new Set<number>();
    for (let permille = 0; permille <= 1100; permille += 5) tokens.add(permille * 200);
    for (const percent of [60, 70, 80, 85, 90, 95]) for (const delta of [-1, 0, 1]) tokens.add(percent * 2000 + delta);
    const sweep = [...tokens].sort((a, b) => a - b);
    for (const taskSize of [undefined, 'small', 'medium', 'large'] as const) {
      for (const announced of [[], ['L1'], ['L2'], ['L1', 'L2'], ['L3']] as MonitorLevel[][]) {
        for (const deferred of [undefined, { upTo: 'L1' as const }, { upTo: 'L2' as const }]) {
          for (const tokensPerCall of [undefined, 1_000, 25_000]) {
            let previous = 0;
            for (const contextTokens of sweep) {
              const reading = readContextLevel({ contextTokens }, { windowTokens: 200_000 });
              const action = decideMonitorAction({
                reading,
                announced,
                ...(taskSize ? { taskSize } : {}),
                ...(deferred ? { deferred } : {}),
                ...(tokensPerCall !== undefined ? { growth: { samples: 2, compacted: false, tokensPerCall } } : {}),
              });
              const severity = monitorSeverity(action.kind);
              expect(severity, `${contextTokens} tokens ${taskSize} ${announced.join()} ${deferred?.upTo} ${tokensPerCall}`).toBeGreaterThanOrEqual(previous);
              previous = severity;
            }
          }
        }
      }
    }
  });

  it('never acts on a level at or below one already acted on', () => {
    fc.assert(
      fc.property(fixedInputs, fc.double({ min: 0, max: 1.2, noNaN: true }), (fixed, fraction) => {
        const action = decideAt(fixed, fraction);
        if (action.kind === 'none') return;
        const rank = { L1: 1, L2: 2, L3: 3 } as const;
        expect(fixed.announced.every((level) => rank[level] < rank[action.level])).toBe(true);
        // Recording the action's level silences it.
        const again = decideAt({ ...fixed, announced: [...fixed.announced, action.level] }, fraction);
        expect(again.kind).toBe('none');
      }),
      { numRuns: 1000 },
    );
  });
});
