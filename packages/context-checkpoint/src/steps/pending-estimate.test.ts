import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTaskHistory } from '../estimate/task-history.ts';
import { readMetricsEvents } from '../metrics/metrics-events.ts';
import { closePendingEstimate, pendingEstimatePath, recordPendingEstimate } from './pending-estimate.ts';

// EST-004: the estimate made at prompt submit meets the tokens the turn actually used at its end.

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function dirs(): { stateDir: string; projectRoot: string } {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-pending-estimate-')));
  return { stateDir: join(root, 'state'), projectRoot: join(root, 'repo') };
}

const FEATURES = { promptChars: 80, pathMentions: 2, bulletItems: 0, broadScope: 1, narrowScope: 0, planOpenItems: 0 };
const usage = (at: string, contextTokens: number) => ({ contextTokens, timestamp: at });

describe('closePendingEstimate', () => {
  it('records estimate vs actual in the task history and the metrics log, once', async () => {
    const { stateDir, projectRoot } = dirs();
    recordPendingEstimate(stateDir, 'sess/1', { at: '2026-01-07T11:00:00.000Z', features: FEATURES, estimatedTokens: 30_000, contextTokensAtSubmit: 50_000 });
    const history = [usage('2026-01-07T10:59:00.000Z', 50_000), usage('2026-01-07T11:01:00.000Z', 60_000), usage('2026-01-07T11:02:00.000Z', 74_000)];
    const closed = await closePendingEstimate({ stateDir, projectRoot, sessionId: 'sess/1', usageHistory: history, latest: history[2], now: new Date('2026-01-07T11:03:00.000Z') });
    expect(closed).toEqual({ kind: 'recorded', estimatedTokens: 30_000, actualTokens: 24_000 });
    const samples = await readTaskHistory({ stateDir, projectRoot });
    expect(samples.records).toEqual([{ at: '2026-01-07T11:03:00.000Z', features: FEATURES, estimatedTokens: 30_000, actualTokens: 24_000 }]);
    const events = await readMetricsEvents({ stateDir, projectRoot });
    expect(events.records).toEqual([{ type: 'estimate', at: '2026-01-07T11:03:00.000Z', estimatedTokens: 30_000, actualTokens: 24_000 }]);
    expect(existsSync(join(stateDir, pendingEstimatePath('sess/1')))).toBe(false);
    // A second Stop of the same turn (after a block) records nothing more.
    expect(await closePendingEstimate({ stateDir, projectRoot, sessionId: 'sess/1', usageHistory: history, latest: history[2], now: new Date() })).toEqual({ kind: 'none' });
    expect((await readTaskHistory({ stateDir, projectRoot })).records).toHaveLength(1);
  });

  it('issue 21: the basis is kept in the history; an item or plan estimate is not an accuracy sample; a bad basis drops the record', async () => {
    const { stateDir, projectRoot } = dirs();
    const history = [usage('2026-01-07T10:59:00.000Z', 50_000), usage('2026-01-07T11:01:00.000Z', 58_000)];
    const close = () => closePendingEstimate({ stateDir, projectRoot, sessionId: 's', usageHistory: history, latest: history[1], now: new Date('2026-01-07T11:03:00.000Z') });
    for (const basis of ['current-item', 'plan', 'prompt'] as const) {
      recordPendingEstimate(stateDir, 's', { at: '2026-01-07T11:00:00.000Z', features: { ...FEATURES, planOpenItems: basis === 'prompt' ? 0 : 3 }, estimatedTokens: 40_000, contextTokensAtSubmit: 50_000, basis });
      expect(await close()).toMatchObject({ kind: 'recorded', actualTokens: 8_000 });
    }
    expect((await readTaskHistory({ stateDir, projectRoot })).records.map((r) => r.basis)).toEqual(['current-item', 'plan', 'prompt']);
    // Only the prompt-only estimate is compared with its turn's growth in `report`.
    expect((await readMetricsEvents({ stateDir, projectRoot })).records).toHaveLength(1);
    writeFileSync(join(stateDir, pendingEstimatePath('s')), JSON.stringify({ at: '2026-01-07T11:00:00.000Z', features: FEATURES, estimatedTokens: 1, contextTokensAtSubmit: 1, basis: 'everything' }));
    expect(await close()).toEqual({ kind: 'unmeasured', detail: 'pending estimate: not a valid record' });
  });

  it("only the turn's records (as a Stop timeline has them): the growth since the context measured at submit", async () => {
    const { stateDir, projectRoot } = dirs();
    recordPendingEstimate(stateDir, 's', { at: '2026-01-07T11:00:00.000Z', features: FEATURES, estimatedTokens: 10_000, contextTokensAtSubmit: 100_000 });
    const turn = [usage('2026-01-07T11:00:02.000Z', 130_000)];
    const closed = await closePendingEstimate({ stateDir, projectRoot, sessionId: 's', usageHistory: turn, latest: turn[0], now: new Date('2026-01-07T11:03:00.000Z') });
    expect(closed).toEqual({ kind: 'recorded', estimatedTokens: 10_000, actualTokens: 30_000 });
  });

  it('without timestamps: the newest record minus the context at submit', async () => {
    const { stateDir, projectRoot } = dirs();
    recordPendingEstimate(stateDir, 's', { at: '2026-01-07T11:00:00.000Z', features: FEATURES, estimatedTokens: 10_000, contextTokensAtSubmit: 20_000 });
    const closed = await closePendingEstimate({ stateDir, projectRoot, sessionId: 's', usageHistory: undefined, latest: { contextTokens: 31_000 }, now: new Date('2026-01-07T11:03:00.000Z') });
    expect(closed).toEqual({ kind: 'recorded', estimatedTokens: 10_000, actualTokens: 11_000 });
  });

  it('an invalid pending file (untrusted state dir) is dropped, not recorded', async () => {
    const { stateDir, projectRoot } = dirs();
    recordPendingEstimate(stateDir, 's', { at: '2026-01-07T11:00:00.000Z', features: FEATURES, estimatedTokens: 1, contextTokensAtSubmit: 0 });
    writeFileSync(join(stateDir, pendingEstimatePath('s')), '{"at":"yesterday","estimatedTokens":-5}');
    const closed = await closePendingEstimate({ stateDir, projectRoot, sessionId: 's', usageHistory: undefined, latest: { contextTokens: 10 }, now: new Date() });
    expect(closed.kind).toBe('unmeasured');
    expect(existsSync(join(stateDir, pendingEstimatePath('s')))).toBe(false);
    expect((await readTaskHistory({ stateDir, projectRoot })).records).toEqual([]);
  });
});
