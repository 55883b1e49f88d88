import { describe, expect, it } from 'vitest';
import { planContextStep, promotePendingContext, withDeferral, withPendingLevel } from './session-context.ts';
import { emptySessionState, recordBlock } from '@agent-checkpoint/core';
import { sessionContextOf, withSessionContext } from './session-slots.ts';

const NOW = new Date('2026-01-10T10:00:00.000Z');
const plan = (current: Parameters<typeof planContextStep>[0], level: 'L0' | 'L1' | 'L2' | 'L3', wantsHandoff = level === 'L2' || level === 'L3') =>
  planContextStep(current, { level, wantsLine: level !== 'L0', wantsHandoff, now: NOW });

describe('planContextStep', () => {
  it('announces a level once, until a delivered block records it', () => {
    const first = plan(undefined, 'L1');
    expect(first).toMatchObject({ announce: true, handoff: false, changed: false });
    // Still pending (the block was not granted): said again.
    expect(plan(withPendingLevel(first.next, 'L1'), 'L1').announce).toBe(true);
    // Announced: not again at the same level, but again at a higher one.
    expect(plan({ announcedLevel: 'L1' }, 'L1').announce).toBe(false);
    expect(plan({ announcedLevel: 'L1' }, 'L2').announce).toBe(true);
  });

  it('claims one handoff per level: L2 once, then L3 (the emergency one)', () => {
    const l2 = plan(undefined, 'L2');
    expect(l2).toMatchObject({ handoff: true, changed: true, next: { handoffLevel: 'L2', handoffAt: NOW.toISOString() } });
    expect(plan(l2.next, 'L2').handoff).toBe(false);
    expect(plan(l2.next, 'L3')).toMatchObject({ handoff: true, next: { handoffLevel: 'L3' } });
    // Handoffs off (warn only): never claimed.
    expect(plan(undefined, 'L3', false).handoff).toBe(false);
  });

  it('a deferral ("one more task") silences levels up to it for the next turn end only, never L3', () => {
    const l2 = plan(withDeferral(undefined, 'L2', NOW), 'L2');
    expect(l2).toMatchObject({ announce: false, handoff: false, changed: true });
    expect(l2.next.deferredLevel).toBeUndefined();
    // Consumed: the turn end after it announces and hands off as usual.
    expect(plan(l2.next, 'L2')).toMatchObject({ announce: true, handoff: true });
    // An L1 deferral does not cover L2; no deferral covers L3.
    expect(plan(withDeferral(undefined, 'L1', NOW), 'L2')).toMatchObject({ announce: true, handoff: true });
    expect(plan(withDeferral(undefined, 'L2', NOW), 'L3')).toMatchObject({ announce: true, handoff: true, next: { handoffLevel: 'L3' } });
    expect(plan(withDeferral(undefined, 'L1', NOW), 'L1')).toMatchObject({ announce: false });
    // Consumed at L0 too: it is for the next turn, not the next time a level is reached.
    expect(plan(withDeferral(undefined, 'L2', NOW), 'L0').next.deferredLevel).toBeUndefined();
    // The slot round-trips through the validated session state.
    const state = withSessionContext(emptySessionState('claude', 's1'), withDeferral(undefined, 'L1', NOW));
    expect(sessionContextOf(state)).toEqual({ deferredLevel: 'L1', deferredAt: NOW.toISOString() });
  });

  it('a lower reading (compaction, /clear) lowers the levels so the next climb is said again', () => {
    const stored = { announcedLevel: 'L2', handoffLevel: 'L2', handoffAt: NOW.toISOString(), handoffPath: 'h.md' } as const;
    const dropped = plan(stored, 'L0');
    expect(dropped.changed).toBe(true);
    expect(dropped.next).toEqual({ handoffAt: NOW.toISOString(), handoffPath: 'h.md' });
    expect(plan(dropped.next, 'L2')).toMatchObject({ announce: true, handoff: true });
    expect(plan(stored, 'L1').next).toMatchObject({ announcedLevel: 'L1', handoffLevel: 'L1' });
  });

  it('a level the monitor acted on during the turn is neither said nor handed off again; a higher one is', () => {
    const withMonitor = (current: Parameters<typeof planContextStep>[0], level: 'L1' | 'L2' | 'L3', monitorActed: 'L1' | 'L2') =>
      planContextStep(current, { level, wantsLine: true, wantsHandoff: level !== 'L1', now: NOW, monitorActed });
    expect(withMonitor(undefined, 'L1', 'L1')).toMatchObject({ announce: false, handoff: false, changed: false });
    expect(withMonitor(undefined, 'L2', 'L1')).toMatchObject({ announce: true, handoff: true });
    // An L2 handoff by the monitor (also early, at an L1 reading): no second one, no L2 or L1 line.
    expect(withMonitor(undefined, 'L2', 'L2')).toMatchObject({ announce: false, handoff: false });
    expect(withMonitor(undefined, 'L1', 'L2')).toMatchObject({ announce: false });
    expect(withMonitor({ announcedLevel: 'L1' }, 'L3', 'L2')).toMatchObject({ announce: true, handoff: true, next: { handoffLevel: 'L3' } });
  });

  it('says nothing changed when nothing did', () => {
    expect(plan({ announcedLevel: 'L1' }, 'L1')).toMatchObject({ announce: false, handoff: false, changed: false });
  });
});

describe('promotePendingContext', () => {
  it('turns the pending level into the announced one on a granted block', () => {
    const state = withSessionContext(emptySessionState('claude', 's'), { pendingLevel: 'L2' as const });
    const promoted = promotePendingContext(recordBlock(state, 't1', NOW), NOW);
    expect(sessionContextOf(promoted)).toEqual({ announcedLevel: 'L2', announcedAt: NOW.toISOString() });
    expect(promoted.turns).toHaveLength(1);
  });

  it('never lowers an announced level and leaves states without a pending line alone', () => {
    const state = withSessionContext(emptySessionState('claude', 's'), { announcedLevel: 'L3' as const, pendingLevel: 'L1' as const });
    expect(sessionContextOf(promotePendingContext(state, NOW))?.announcedLevel).toBe('L3');
    const plain = emptySessionState('codex', 's');
    expect(promotePendingContext(plain, NOW)).toBe(plain);
  });
});
