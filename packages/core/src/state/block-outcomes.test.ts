import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blockOutcomeReport, summarizeBlockOutcomes } from './block-outcome-report.ts';
import { MAX_EVIDENCE_PER_FINDING, MAX_OUTCOMES_KEPT, projectKey, readBlockOutcomes, settleAll, withPendingBlock, type PendingBlock } from './block-outcomes.ts';
import { claimCheckpoint } from './claim-checkpoint.ts';
import { DEFAULT_LOOP_GUARD } from './loop-guard.ts';
import { hasPendingBlockMarker } from './pending-block-marker.ts';
import { emptySessionState, recordBlock } from './session-state.ts';
import { readSessionState } from './session-state-store.ts';
import { settleSwitchedOff } from './settle-block-outcome.ts';
import { sessionStatePath } from './state-files.ts';

const NOW = new Date('2026-11-28T05:00:00.000Z');
const pending = (project: string, at = NOW.toISOString()): PendingBlock => ({
  at,
  turnId: 't1',
  project: projectKey(project),
  anchorCallId: 'c1',
  categories: ['daemon'],
  findings: [
    { rule: 'daemon', category: 'daemon', check: { kind: 'evidence', evidence: ['make restart'] } },
    { rule: 'edit-without-read', check: { kind: 'advisory' } },
  ],
});

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ac-outcomes-'));
  dirs.push(dir);
  return dir;
}

describe('block outcome bookkeeping in the session state', () => {
  it('a newer block settles a still pending one as unknown; settled outcomes are bounded', () => {
    let state = emptySessionState('claude', 's1');
    for (let i = 0; i < MAX_OUTCOMES_KEPT + 5; i++) state = withPendingBlock(state, pending('/repo', new Date(NOW.getTime() + i * 1000).toISOString()), NOW);
    const read = readBlockOutcomes(state);
    expect(read.pending?.at).toBe(new Date(NOW.getTime() + (MAX_OUTCOMES_KEPT + 4) * 1000).toISOString());
    expect(read.outcomes).toHaveLength(MAX_OUTCOMES_KEPT);
    expect(read.outcomes.every((o) => o.outcome === 'unknown')).toBe(true);
  });

  it('bounds what a hostile configuration could put in a pending block', () => {
    const many = Array.from({ length: 100 }, (_, i) => `cmd-${i}`);
    const state = withPendingBlock(emptySessionState('claude', 's1'), { ...pending('/r'), findings: [{ rule: 'x', check: { kind: 'evidence', evidence: [...many, 'y'.repeat(10_000)] } }] }, NOW);
    const check = readBlockOutcomes(state).pending?.findings[0]?.check;
    expect(check?.kind === 'evidence' && check.evidence).toHaveLength(MAX_EVIDENCE_PER_FINDING);
  });

  it('a damaged outcome field reads as absent and leaves the loop guard record alone', async () => {
    const dir = stateDir();
    const location = { stateDir: dir, agent: 'claude' as const, sessionId: 's1' };
    const granted = await claimCheckpoint({ ...location, turnId: 't1', stopHookActive: false, config: DEFAULT_LOOP_GUARD, now: NOW, block: pending('/repo') });
    expect(granted.claim.verdict).toBe('allow');
    expect(hasPendingBlockMarker(location)).toBe(true);
    const path = sessionStatePath(location);
    const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...json, pendingBlock: { at: 'not a date' }, blockOutcomes: 'nonsense' }));
    const { state, diagnostics } = await readSessionState(location);
    expect(diagnostics).toEqual([]);
    expect(state.turns.map((t) => t.blocks)).toEqual([1]);
    expect(readBlockOutcomes(state)).toEqual({ outcomes: [] });
    // The loop guard still counts the block: the turn gets no second one.
    const again = await claimCheckpoint({ ...location, turnId: 't1', stopHookActive: false, config: DEFAULT_LOOP_GUARD, now: NOW, block: pending('/repo') });
    expect(again.claim.verdict).toBe('pass');
  });
});

describe('settleSwitchedOff', () => {
  async function blocked(dir: string, sessionId: string, project: string): Promise<void> {
    const r = await claimCheckpoint({ stateDir: dir, agent: 'codex', sessionId, turnId: 't1', stopHookActive: false, config: DEFAULT_LOOP_GUARD, now: NOW, block: pending(project) });
    expect(r.claim.verdict).toBe('allow');
  }

  it('off --project settles the pending blocks of that project only, and clears their flags', async () => {
    const dir = stateDir();
    await blocked(dir, 'in-a', '/repo/a');
    await blocked(dir, 'in-b', '/repo/b');
    await settleSwitchedOff({ stateDir: dir, scope: { kind: 'project', projectRoot: '/repo/a' }, now: NOW });
    const a = readBlockOutcomes((await readSessionState({ stateDir: dir, agent: 'codex', sessionId: 'in-a' })).state);
    const b = readBlockOutcomes((await readSessionState({ stateDir: dir, agent: 'codex', sessionId: 'in-b' })).state);
    expect(a.pending).toBeUndefined();
    expect(a.outcomes.map((o) => o.outcome)).toEqual(['switched-off']);
    expect(a.outcomes[0]?.findings.map((f) => f.outcome)).toEqual(['switched-off', 'switched-off']);
    expect(hasPendingBlockMarker({ stateDir: dir, agent: 'codex', sessionId: 'in-a' })).toBe(false);
    expect(b.pending).toBeDefined();
    expect(b.outcomes).toEqual([]);
    // off --all then takes the rest; a session id that is no safe file name is found through its digest.
    await blocked(dir, 'a session/with slashes', '/repo/c');
    await settleSwitchedOff({ stateDir: dir, scope: { kind: 'all' }, now: NOW });
    const c = readBlockOutcomes((await readSessionState({ stateDir: dir, agent: 'codex', sessionId: 'a session/with slashes' })).state);
    expect(c.outcomes.map((o) => o.outcome)).toEqual(['switched-off']);
    expect(readBlockOutcomes((await readSessionState({ stateDir: dir, agent: 'codex', sessionId: 'in-b' })).state).outcomes.map((o) => o.outcome)).toEqual([
      'switched-off',
    ]);
  });

  it('without a state directory it does nothing and does not throw', async () => {
    const dir = join(stateDir(), 'missing');
    await expect(settleSwitchedOff({ stateDir: dir, scope: { kind: 'all' } })).resolves.toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('report counts', () => {
  it('per category (the block outcome) and per rule (each finding), precision without unknown', () => {
    const p = pending('/repo');
    const acted = { ...settleAll(p, 'acted-on', NOW), findings: [{ rule: 'daemon', category: 'daemon', outcome: 'acted-on' as const }, { rule: 'edit-without-read', outcome: 'acted-on' as const }] };
    const report = summarizeBlockOutcomes([acted, settleAll(p, 'disputed', NOW), settleAll(p, 'unknown', NOW)]);
    expect(report.total).toEqual({ blocks: 3, outcomes: { 'acted-on': 1, disputed: 1, ignored: 0, 'switched-off': 0, unknown: 1 }, precision: 0.5 });
    expect(report.byCategory['daemon']?.blocks).toBe(3);
    expect(report.byRule['daemon']?.outcomes['acted-on']).toBe(1);
    expect(summarizeBlockOutcomes([settleAll(p, 'unknown', NOW)]).total.precision).toBeUndefined();
  });

  it("reads only this project's blocks, and counts pending ones apart", async () => {
    const dir = stateDir();
    for (const [id, project] of [['s1', '/repo/a'], ['s2', '/repo/b']] as const) {
      await claimCheckpoint({ stateDir: dir, agent: 'gemini', sessionId: id, turnId: 't1', stopHookActive: false, config: DEFAULT_LOOP_GUARD, now: NOW, block: pending(project) });
    }
    await settleSwitchedOff({ stateDir: dir, scope: { kind: 'session', sessionId: 's1' }, now: NOW });
    const a = await blockOutcomeReport({ stateDir: dir, projectRoot: '/repo/a' });
    expect([a.total.blocks, a.total.outcomes['switched-off'], a.pending]).toEqual([1, 1, 0]);
    const b = await blockOutcomeReport({ stateDir: dir, projectRoot: '/repo/b' });
    expect([b.total.blocks, b.pending]).toEqual([0, 1]);
    // A state file that is not ours is skipped, not fatal.
    writeFileSync(join(dir, 'sessions', 'claude-broken.json'), '{not json');
    expect((await blockOutcomeReport({ stateDir: dir, projectRoot: '/repo/a' })).total.blocks).toBe(1);
    // recordBlock alone (a block claimed without findings, e.g. by an older route) adds nothing.
    expect(readBlockOutcomes(recordBlock(emptySessionState('claude', 'x'), 't', NOW))).toEqual({ outcomes: [] });
  });
});
