import { describe, expect, it } from 'vitest';
import { clockSkewNote, DEFAULT_LOOP_GUARD, decideLoopGuard, type LoopGuardInput } from './loop-guard.ts';
import { emptySessionState, recordBlock } from './session-state.ts';

const T0 = new Date('2026-01-10T10:00:00.000Z');
const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

function input(overrides: Partial<LoopGuardInput> = {}): LoopGuardInput {
  return {
    state: emptySessionState('claude', 's1'),
    turnId: 'turn-1',
    stopHookActive: false,
    now: at(120),
    config: DEFAULT_LOOP_GUARD,
    ...overrides,
  };
}

describe('decideLoopGuard', () => {
  it('allows the first block of a long enough turn', () => {
    expect(decideLoopGuard(input())).toEqual({ verdict: 'allow', turnId: 'turn-1', blocksSoFar: 0 });
  });

  it('always passes when stop_hook_active is true, whatever else holds', () => {
    const d = decideLoopGuard(input({ stopHookActive: true, config: { maxBlocksPerTurn: 99, minTurnSeconds: 0 } }));
    expect(d).toMatchObject({ verdict: 'pass', reason: 'stop-hook-active' });
  });

  it('passes when the turn has no identity', () => {
    expect(decideLoopGuard(input({ turnId: undefined }))).toMatchObject({ verdict: 'pass', reason: 'no-turn-identity' });
    expect(decideLoopGuard(input({ turnId: '' }))).toMatchObject({ verdict: 'pass', reason: 'no-turn-identity' });
  });

  it('passes once the turn got maxBlocksPerTurn blocks (state file)', () => {
    const state = recordBlock(emptySessionState('gemini', 's1'), 'turn-1', at(60));
    // Gemini: stop_hook_active is false again after a tool call; only the count stops the loop.
    expect(decideLoopGuard(input({ state, now: at(600) }))).toMatchObject({ verdict: 'pass', reason: 'turn-limit-reached' });
  });

  it('counts the transcript too, so a lost state file still limits blocks', () => {
    expect(decideLoopGuard(input({ checkpointsDelivered: 1 }))).toMatchObject({ verdict: 'pass', reason: 'turn-limit-reached' });
  });

  it('allows a new turn after a blocked one', () => {
    const state = recordBlock(emptySessionState('claude', 's1'), 'turn-1', at(60));
    const d = decideLoopGuard(input({ state, turnId: 'turn-2', now: at(200) }));
    expect(d).toEqual({ verdict: 'allow', turnId: 'turn-2', blocksSoFar: 0 });
  });

  it('honours maxBlocksPerTurn above one, and 0 never blocks', () => {
    const once = recordBlock(emptySessionState('codex', 's1'), 'turn-1', at(10));
    const config = { maxBlocksPerTurn: 2, minTurnSeconds: 30 };
    expect(decideLoopGuard(input({ state: once, config, now: at(100) }))).toEqual({ verdict: 'allow', turnId: 'turn-1', blocksSoFar: 1 });
    const twice = recordBlock(once, 'turn-1', at(100));
    expect(decideLoopGuard(input({ state: twice, config, now: at(500) }))).toMatchObject({ reason: 'turn-limit-reached' });
    expect(decideLoopGuard(input({ config: { maxBlocksPerTurn: 0, minTurnSeconds: 0 } }))).toMatchObject({ reason: 'turn-limit-reached' });
  });

  it('checks every turn however quick: a 1 s turn gets its first checkpoint (old rule: 30 s from the prompt)', () => {
    expect(decideLoopGuard(input({ now: at(1) }))).toEqual({ verdict: 'allow', turnId: 'turn-1', blocksSoFar: 0 });
    expect(decideLoopGuard(input({ now: at(0) }))).toMatchObject({ verdict: 'allow' });
  });

  it('a quick turn right after our checkpoint of the previous turn is checked too (queued prompt)', () => {
    // Previous turn was checkpointed at +100 s; the new prompt came at +50 s (queued) and the turn ends at +101 s.
    const state = recordBlock(emptySessionState('claude', 's1'), 'turn-0', at(100));
    expect(decideLoopGuard(input({ state, now: at(101) }))).toEqual({
      verdict: 'allow',
      turnId: 'turn-1',
      blocksSoFar: 0,
    });
  });

  it('the interval applies only after our own checkpoint of the same turn', () => {
    const config = { maxBlocksPerTurn: 2, minTurnSeconds: 30 };
    const state = recordBlock(emptySessionState('gemini', 's1'), 'turn-1', at(100));
    expect(decideLoopGuard(input({ state, config, now: at(129.9) }))).toMatchObject({
      verdict: 'pass',
      reason: 'too-soon-after-checkpoint',
      detail: "29.9s since this turn's last checkpoint, under 30s",
    });
    expect(decideLoopGuard(input({ state, config, now: at(130) }))).toEqual({ verdict: 'allow', turnId: 'turn-1', blocksSoFar: 1 });
    // 0 disables it; a block the transcript shows but the state lost has no time: no interval.
    expect(decideLoopGuard(input({ state, config: { maxBlocksPerTurn: 2, minTurnSeconds: 0 }, now: at(101) }))).toMatchObject({ verdict: 'allow' });
    expect(decideLoopGuard(input({ checkpointsDelivered: 1, config, now: at(1) }))).toMatchObject({ verdict: 'allow', blocksSoFar: 1 });
  });

  it('a checkpoint recorded in the future (clock skew) is ignored, with a note, and does not silence later turns', () => {
    const skewed = recordBlock(emptySessionState('claude', 's1'), 'turn-1', new Date('2027-06-01T00:00:00.000Z'));
    const config = { maxBlocksPerTurn: 2, minTurnSeconds: 30 };
    // The same turn: the future time is not "0 s ago"; another turn: checked as usual.
    expect(decideLoopGuard(input({ state: skewed, config, now: at(120) }))).toEqual({ verdict: 'allow', turnId: 'turn-1', blocksSoFar: 1 });
    expect(decideLoopGuard(input({ state: skewed, turnId: 'turn-2', now: at(120) }))).toMatchObject({ verdict: 'allow' });
    expect(clockSkewNote(skewed, at(120))).toMatch(/2027-06-01T00:00:00\.000Z, later than now .*clock skew/);
    // Within the tolerance (two hooks' clock readings) a time still counts, as "just now".
    const close = recordBlock(emptySessionState('claude', 's1'), 'turn-1', at(122));
    expect(clockSkewNote(close, at(120))).toBeUndefined();
    expect(decideLoopGuard(input({ state: close, config, now: at(120) }))).toMatchObject({ reason: 'too-soon-after-checkpoint' });
  });
});

describe('recordBlock', () => {
  it('counts per turn, moves the turn to the end and keeps the file bounded', () => {
    let state = emptySessionState('claude', 's1');
    for (let i = 0; i < 100; i += 1) state = recordBlock(state, `turn-${i}`, at(i));
    state = recordBlock(state, 'turn-99', at(200));
    expect(state.turns).toHaveLength(32);
    expect(state.turns.at(-1)).toEqual({
      turnId: 'turn-99',
      blocks: 2,
      firstBlockAt: at(99).toISOString(),
      lastBlockAt: at(200).toISOString(),
    });
    expect(state.turns[0]?.turnId).toBe('turn-68');
    expect(state.lastCheckpointAt).toBe(at(200).toISOString());
  });

  it('stores over-long turn ids as a digest and finds them again', () => {
    const long = 'p'.repeat(5000);
    const state = recordBlock(emptySessionState('gemini', 's1'), long, at(0));
    expect(state.turns[0]?.turnId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(decideLoopGuard(input({ state, turnId: long, now: at(100) }))).toMatchObject({ reason: 'turn-limit-reached' });
  });
});
