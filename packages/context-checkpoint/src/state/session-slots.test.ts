import { emptySessionState } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { commitGateStateOf, sessionContextOf, withCommitGateState, withSessionContext } from './session-slots.ts';

describe("the package's session state slots", () => {
  const base = emptySessionState('claude', 's');

  it('round-trip through SessionState.extensions, each slot on its own', () => {
    const withContext = withSessionContext(base, { announcedLevel: 'L2', handoffPath: 'h.md' });
    const both = withCommitGateState(withContext, { turnId: 't1', armedAt: '2026-01-10T10:00:00.000Z' });
    expect(both.extensions).toEqual({ context: { announcedLevel: 'L2', handoffPath: 'h.md' }, commitGate: { turnId: 't1', armedAt: '2026-01-10T10:00:00.000Z' } });
    expect(sessionContextOf(both)).toEqual({ announcedLevel: 'L2', handoffPath: 'h.md' });
    expect(commitGateStateOf(both)?.turnId).toBe('t1');
    expect(sessionContextOf(base)).toBeUndefined();
    expect(commitGateStateOf(base)).toBeUndefined();
  });

  it('an invalid slot (a hand-edited or foreign file) reads as absent', () => {
    const bad = { ...base, extensions: { context: { announcedLevel: 'L9' }, commitGate: { turnId: '', armedAt: 'yesterday' } } };
    expect(sessionContextOf(bad)).toBeUndefined();
    expect(commitGateStateOf(bad)).toBeUndefined();
    expect(sessionContextOf({ extensions: { context: 'text' } })).toBeUndefined();
  });
});
