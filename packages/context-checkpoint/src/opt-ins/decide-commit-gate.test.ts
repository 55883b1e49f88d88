import { armCommitGate } from '../commit-gate/commit-gate-marker.ts';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimCheckpoint } from '@agent-checkpoint/core';
import { makeTempGitRepo } from '@agent-checkpoint/core/test-support';
import { COMMIT_GATE_TEXT } from './commit-gate.ts';
import { decideCommitGate, type DecideCommitGateInput } from './decide-commit-gate.ts';
import { resolveWithSections } from '../config/context-sections.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const NOW = new Date('2026-01-10T10:00:00Z');
const gated = resolveWithSections([{ source: { kind: 'project-file', name: 't' }, config: { commitGate: {} } }]);

function world() {
  const repo = makeTempGitRepo();
  cleanups.push(repo.remove);
  repo.write('src/a.py', 'a\n');
  repo.git(['add', '-A']);
  repo.commit('base');
  const location = { stateDir: join(repo.dir, '..', 'state'), agent: 'claude' as const, sessionId: 's-1' };
  const notes: string[] = [];
  const input = (over: Partial<DecideCommitGateInput> = {}): DecideCommitGateInput => ({
    location,
    turn: { turnId: 't1' },
    cwd: repo.dir,
    env: repo.env,
    config: gated,
    deadlineAt: Date.now() + 30_000,
    now: NOW,
    log: { debug: (n) => notes.push(n), warn: (n) => notes.push(n) },
    ...over,
  });
  const arm = () => claimCheckpoint({ ...location, turnId: 't1', stopHookActive: false, config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 }, now: NOW, onGranted: armCommitGate(undefined) });
  return { repo, input, arm };
}

// Real git repositories, real session state.
describe('decideCommitGate', { timeout: 60_000 }, () => {
  it('not armed: passes without reading the config', async () => {
    const { input } = world();
    let loaded = false;
    const decision = await decideCommitGate(input({ config: () => ((loaded = true), Promise.resolve(gated)) }));
    expect(decision).toEqual({ kind: 'pass', detail: 'not-armed', stateUnavailable: false });
    expect(loaded).toBe(false);
  });

  it('armed with an uncommitted gated file: blocks once, then passes (already-blocked)', async () => {
    const { repo, input, arm } = world();
    expect((await arm()).claim.verdict).toBe('allow');
    repo.write('src/a.py', 'changed\n');
    const first = await decideCommitGate(input());
    expect(first).toEqual({ kind: 'block', message: `[agent-checkpoint] ${COMMIT_GATE_TEXT}\n\nChanged: \`src/a.py\``, files: ['src/a.py'], turnId: 't1' });
    expect(await decideCommitGate(input())).toEqual({ kind: 'pass', detail: 'already-blocked', stateUnavailable: false });
  });

  it('armed but nothing gated is uncommitted, or the gate is off in the config: passes', async () => {
    const { input, arm } = world();
    await arm();
    expect(await decideCommitGate(input())).toEqual({ kind: 'pass', detail: 'no gated file is uncommitted', stateUnavailable: false });
    expect(await decideCommitGate(input({ config: resolveWithSections([]) }))).toEqual({ kind: 'pass', detail: 'commitGate is off in the configuration', stateUnavailable: false });
  });

  it('a config loader that throws passes with the reason (never throws)', async () => {
    const { input, arm } = world();
    await arm();
    expect(await decideCommitGate(input({ config: () => Promise.reject(new Error('broken')) }))).toEqual({ kind: 'pass', detail: 'failed: broken', stateUnavailable: false });
  });
});
