import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliveredMessageDigest, isDeliveredCheckpoint, ownCheckpointRule } from '../transcript/delivered-message.ts';
import { claimCheckpoint, type ClaimCheckpointRequest } from './claim-checkpoint.ts';
import { MAX_DELIVERED_KEPT } from './session-state.ts';
import { readSessionState } from './session-state-store.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ac-delivered-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const location = () => ({ stateDir: join(root, 'state'), agent: 'gemini' as const, sessionId: 'session-1' });
const request = (turnId: string, message: string): ClaimCheckpointRequest => ({
  ...location(),
  turnId,
  stopHookActive: false,
  config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 },
  now: new Date('2026-01-10T10:00:00.000Z'),
  messageDigest: deliveredMessageDigest(message),
});

describe('delivered message digests in the session state', () => {
  it('a granted claim records the digest of its message; a refused one does not', async () => {
    expect((await claimCheckpoint(request('turn-1', '[agent-checkpoint] run the tests'))).claim.verdict).toBe('allow');
    expect((await claimCheckpoint(request('turn-1', '[agent-checkpoint] refused'))).claim.verdict).toBe('pass');
    const { state } = await readSessionState(location());
    expect(state.delivered).toEqual([deliveredMessageDigest('[agent-checkpoint] run the tests')]);
  });

  it(`keeps the last ${MAX_DELIVERED_KEPT}, newest last`, async () => {
    for (let i = 0; i < MAX_DELIVERED_KEPT + 3; i += 1) await claimCheckpoint(request(`turn-${i}`, `message ${i}`));
    const { state } = await readSessionState(location());
    expect(state.delivered).toHaveLength(MAX_DELIVERED_KEPT);
    expect(state.delivered?.at(-1)).toBe(deliveredMessageDigest(`message ${MAX_DELIVERED_KEPT + 2}`));
    expect(state.delivered?.[0]).toBe(deliveredMessageDigest('message 3'));
  });
});

describe('deliveredMessageDigest / isDeliveredCheckpoint', () => {
  it('ignores re-wrapping and surrounding whitespace, nothing else', () => {
    const digest = deliveredMessageDigest('[cp] line one\nline two');
    expect(deliveredMessageDigest('  [cp] line one\r\n  line two \n')).toBe(digest);
    expect(deliveredMessageDigest('[cp] line one\nline three')).not.toBe(digest);
  });

  it('with a delivery record only delivered texts count; without one the prefix decides', () => {
    const delivered = ownCheckpointRule({ checkpointPrefix: '[cp]', deliveredDigests: [deliveredMessageDigest('[cp] run the tests')] });
    expect(isDeliveredCheckpoint('[cp] run the tests', delivered)).toBe(true);
    expect(isDeliveredCheckpoint('[cp] please fix the build', delivered)).toBe(false);
    expect(isDeliveredCheckpoint('[cp] anything', ownCheckpointRule({ checkpointPrefix: '[cp]', deliveredDigests: [] }))).toBe(false);
    expect(isDeliveredCheckpoint('[cp] anything', ownCheckpointRule({ checkpointPrefix: '[cp]' }))).toBe(true);
    expect(isDeliveredCheckpoint('anything', ownCheckpointRule({ checkpointPrefix: '' }))).toBe(false);
  });
});
