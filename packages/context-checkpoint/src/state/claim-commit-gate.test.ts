import { armCommitGate } from '../commit-gate/commit-gate-marker.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimCheckpoint, emptySessionState, readSessionState, updateSessionState } from '@agent-checkpoint/core';
import { claimCommitGateBlock, commitGateFor } from './claim-commit-gate.ts';
import { promotePendingContext } from './session-context.ts';
import { commitGateStateOf, sessionContextOf, withCommitGateState, withSessionContext } from './session-slots.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ac-gate-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const NOW = new Date('2026-01-10T10:00:00.000Z');
const location = () => ({ stateDir: join(root, 'state'), agent: 'claude' as const, sessionId: 's1' });
const config = { maxBlocksPerTurn: 1, minTurnSeconds: 0 };

describe('commitGateFor', () => {
  const armed = withCommitGateState(emptySessionState('gemini', 's1'), { turnId: 't1', promptKey: 'prompt-abc', armedAt: NOW.toISOString() });
  it('applies to the armed turn only, by turn id or (Gemini) prompt key', () => {
    expect(commitGateFor(emptySessionState('claude', 's1'), { turnId: 't1' })).toMatchObject({ verdict: 'pass', reason: 'not-armed' });
    expect(commitGateFor(armed, { turnId: 't1' })).toEqual({ verdict: 'allow', turnId: 't1' });
    expect(commitGateFor(armed, { promptKey: 'prompt-abc' })).toEqual({ verdict: 'allow', turnId: 't1' });
    expect(commitGateFor(armed, { turnId: 't2', promptKey: 'prompt-xyz' })).toMatchObject({ verdict: 'pass', reason: 'other-turn' });
    expect(commitGateFor(armed, {})).toMatchObject({ verdict: 'pass', reason: 'other-turn' });
  });
  it('a stop naming the payload id matches a gate armed under its refinement (a Claude command turn), not the reverse', () => {
    const refined = withCommitGateState(armed, { turnId: 'p1#uuid-of-echo', armedAt: NOW.toISOString() });
    expect(commitGateFor(refined, { turnId: 'p1' })).toEqual({ verdict: 'allow', turnId: 'p1#uuid-of-echo' });
    expect(commitGateFor(refined, { turnId: 'p1#uuid-of-echo' })).toEqual({ verdict: 'allow', turnId: 'p1#uuid-of-echo' });
    expect(commitGateFor(refined, { turnId: 'p10' })).toMatchObject({ verdict: 'pass', reason: 'other-turn' });
    const bare = withCommitGateState(armed, { turnId: 'p1', armedAt: NOW.toISOString() });
    expect(commitGateFor(bare, { turnId: 'p1#uuid-of-echo' })).toMatchObject({ verdict: 'pass', reason: 'other-turn' });
  });
  it('passes once the extra block was used', () => {
    const used = withCommitGateState(armed, { ...commitGateStateOf(armed)!, blockedAt: NOW.toISOString() });
    expect(commitGateFor(used, { turnId: 't1' })).toMatchObject({ verdict: 'pass', reason: 'already-blocked' });
  });
});

describe('claimCheckpoint + claimCommitGateBlock', () => {
  it('a granted block arms the gate; the gate grants exactly one more block in that turn', async () => {
    const claim = await claimCheckpoint({ ...location(), turnId: 't1', stopHookActive: false, config, now: NOW, onGranted: armCommitGate(undefined) });
    expect(claim.claim.verdict).toBe('allow');
    expect(commitGateStateOf((await readSessionState(location())).state)).toEqual({ turnId: 't1', armedAt: NOW.toISOString() });

    const results = await Promise.all(Array.from({ length: 5 }, () => claimCommitGateBlock({ ...location(), turnId: 't1', now: NOW })));
    expect(results.filter((r) => r.claim.verdict === 'allow')).toHaveLength(1);
    expect(results.filter((r) => r.claim.verdict === 'pass' && r.claim.reason === 'already-blocked')).toHaveLength(4);
    const { state } = await readSessionState(location());
    expect(commitGateStateOf(state)?.blockedAt).toBe(NOW.toISOString());
    expect(state.turns).toEqual([expect.objectContaining({ turnId: 't1', blocks: 2 })]);
    // A new turn's block re-arms for that turn only.
    await claimCheckpoint({ ...location(), turnId: 't2', stopHookActive: false, config, now: NOW, onGranted: armCommitGate(undefined) });
    expect((await claimCommitGateBlock({ ...location(), turnId: 't1', now: NOW })).claim).toMatchObject({ reason: 'other-turn' });
    expect((await claimCommitGateBlock({ ...location(), turnId: 't2', now: NOW })).claim.verdict).toBe('allow');
  });

  it('without the gate\'s onGranted nothing is armed; a pending context line is promoted on the grant', async () => {
    await updateSessionState(location(), (s) => ({ state: withSessionContext(s, { pendingLevel: 'L1' }), value: undefined }));
    await claimCheckpoint({ ...location(), turnId: 't1', stopHookActive: false, config, now: NOW, onGranted: promotePendingContext });
    const { state } = await readSessionState(location());
    expect(commitGateStateOf(state)).toBeUndefined();
    expect(sessionContextOf(state)).toEqual({ announcedLevel: 'L1', announcedAt: NOW.toISOString() });
    expect((await claimCommitGateBlock({ ...location(), turnId: 't1', now: NOW })).claim).toMatchObject({ reason: 'not-armed' });
  });

  it('a refused claim leaves the pending line pending', async () => {
    await claimCheckpoint({ ...location(), turnId: 't1', stopHookActive: false, config, now: NOW });
    await updateSessionState(location(), (s) => ({ state: withSessionContext(s, { pendingLevel: 'L2' }), value: undefined }));
    const refused = await claimCheckpoint({ ...location(), turnId: 't1', stopHookActive: false, config, now: NOW, onGranted: promotePendingContext });
    expect(refused.claim).toMatchObject({ verdict: 'pass', reason: 'turn-limit-reached' });
    expect(sessionContextOf((await readSessionState(location())).state)).toEqual({ pendingLevel: 'L2' });
  });

  it('fails open when the state cannot be written', async () => {
    const blocker = join(root, 'a-file');
    await writeFile(blocker, '');
    const result = await claimCommitGateBlock({ stateDir: join(blocker, 'state'), agent: 'codex', sessionId: 's', turnId: 't' });
    expect(result.claim).toMatchObject({ verdict: 'pass', reason: 'state-unavailable' });
  });
});
