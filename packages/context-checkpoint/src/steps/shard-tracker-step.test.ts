import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TempGitRepo } from '@agent-checkpoint/core/test-support';
import { planShards, type ShardPlan } from '../shard/plan-shards.ts';
import { writeShards } from '../shard/write-shards.ts';
import { DEFAULT_TRACKER_SETTINGS, LINEAR_ENDPOINT_ENV, type TrackerSettings } from '../tracker/tracker-settings.ts';
import { startLinearMock, type LinearMock } from '../tracker/test-support/linear-mock.ts';
import { committedRepo, stateDirOf } from './test-support/context-turn.ts';
import { syncShardsToTracker, type ShardTrackerOutcome } from './shard-tracker-step.ts';

// SHD-003/004 against the loopback mock of Linear's GraphQL API, through the real client (fetch, the
// documented operations, zod-validated answers): one sub-issue per shard under the parent, no
// duplicates on a rerun, finished shards' sub-issues moved to done and the parent's progress posted,
// and a rerun that finishes what an outage left.

const KEY = 'lin_api_test_0123456789';
const SETTINGS: TrackerSettings = { ...DEFAULT_TRACKER_SETTINGS, enabled: true, timeoutMs: 2_000 };
const PLAN = ['# Plan', '', ...Array.from({ length: 8 }, (_, i) => `- [ ] Refactor module ${i + 1} of the auth service and update every caller and its tests`), ''].join('\n');

let mock: LinearMock;
const cleanups: (() => void)[] = [];
beforeEach(async () => {
  mock = await startLinearMock({
    apiKey: KEY,
    teams: [{ id: 'team-anv', key: 'ANV' }],
    states: [
      { id: 'st-todo', name: 'Todo', type: 'unstarted', teamId: 'team-anv' },
      { id: 'st-done', name: 'Done', type: 'completed', teamId: 'team-anv' },
    ],
    issues: [{ id: 'uuid-123', identifier: 'ANV-123', title: 'Auth refactor', teamId: 'team-anv', stateId: 'st-todo' }],
  });
});
afterEach(async () => {
  await mock.close();
  while (cleanups.length > 0) cleanups.pop()?.();
});

interface World {
  readonly r: TempGitRepo;
  readonly plan: ShardPlan;
  readonly dir: string;
  sync(overrides?: { parentId?: string; planText?: string }): Promise<ShardTrackerOutcome>;
}

async function world(branch = 'feature/ANV-123-auth'): Promise<World> {
  const r = committedRepo(cleanups, branch);
  writeFileSync(join(r.dir, 'PLAN.md'), PLAN);
  // A small window so the plan needs several shards.
  const plan = planShards({ planText: PLAN, budget: { window: 60_000 } });
  const { dir } = await writeShards({ projectRoot: r.dir, planPath: 'PLAN.md', plan });
  const env = { ...r.env, LINEAR_API_KEY: KEY, [LINEAR_ENDPOINT_ENV]: mock.url };
  return {
    r,
    plan,
    dir,
    sync: (overrides = {}) =>
      syncShardsToTracker({
        settings: SETTINGS,
        env,
        stateDir: stateDirOf(r),
        projectRoot: r.dir,
        planPath: 'PLAN.md',
        planText: overrides.planText ?? PLAN,
        plan,
        dir,
        ...(overrides.parentId !== undefined ? { parentId: overrides.parentId } : {}),
        now: new Date(),
      }),
  };
}

const subIssues = () => mock.issues.filter((i) => i.parentId === 'uuid-123');
const creates = () => mock.requests.filter((q) => q.operationName === 'CheckpointIssueCreate').length;
const synced = (o: ShardTrackerOutcome) => {
  if (o.kind !== 'synced') throw new Error(`not synced: ${o.message}`);
  return o.result;
};

describe('shard sub-issues in Linear (SHD-003/004)', { timeout: 60_000 }, () => {
  it('one sub-issue per shard under the branch\'s issue, in its team; a rerun creates none again', async () => {
    const w = await world();
    expect(w.plan.shards.length).toBeGreaterThanOrEqual(2);
    const first = synced(await w.sync());
    expect(first.created).toHaveLength(w.plan.shards.length);
    expect(subIssues().map((i) => i.title)).toEqual(w.plan.shards.map((s) => `Shard ${s.number}/${w.plan.shards.length}: ${s.title}`));
    expect(subIssues().every((i) => i.teamId === 'team-anv')).toBe(true);
    expect(subIssues()[0]?.description).toContain('- [ ] Refactor module 1');
    // The parent is told the plan's progress once: nothing done yet.
    expect(mock.comments.filter((c) => c.issueId === 'uuid-123').map((c) => c.body)[0]).toMatch(/0 of \d shards done, 0 of 8 items/);
    expect(mock.violations).toEqual([]);

    const count = creates();
    const again = synced(await w.sync());
    expect(again.created).toEqual([]);
    expect(creates()).toBe(count);
    expect(subIssues()).toHaveLength(w.plan.shards.length);
    // Unchanged progress: no second comment.
    expect(again.progressPosted).toBeUndefined();
    expect(mock.comments).toHaveLength(1);
  });

  it('a finished shard moves its sub-issue to Done and the parent gets the new progress, once', async () => {
    const w = await world();
    const first = synced(await w.sync());
    const [file, issue] = Object.entries(first.issues).sort(([a], [b]) => (a < b ? -1 : 1))[0] ?? [];
    expect(file).toBeDefined();
    // The agent checks every item of the first shard off in its file.
    const path = join(w.r.dir, file ?? '');
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('- [ ] ', '- [x] '));
    const second = synced(await w.sync());
    expect(second.completed).toEqual([issue?.identifier]);
    expect(mock.issues.find((i) => i.identifier === issue?.identifier)?.stateId).toBe('st-done');
    expect(second.progressPosted).toMatch(new RegExp(`1 of ${w.plan.shards.length} shards done`));
    expect(second.progressPosted).toContain(`- ${issue?.identifier ?? ''}: done`);
    const third = synced(await w.sync());
    expect(third.completed).toEqual([]);
    expect(third.progressPosted).toBeUndefined();
    expect(mock.comments).toHaveLength(2);
  });

  it('Linear down: nothing is duplicated, the next run creates what is missing', async () => {
    const w = await world();
    // The first create meets a 503 twice (the client retries once): the run stops there.
    mock.fault({ kind: 'server-error' }, { kind: 'server-error' });
    const down = synced(await w.sync());
    expect(down.created).toEqual([]);
    expect(down.diagnostics.join('\n')).toMatch(/failed \(network\)/);
    expect(subIssues()).toHaveLength(0);
    const up = synced(await w.sync());
    expect(up.created).toHaveLength(w.plan.shards.length);
    expect(subIssues()).toHaveLength(w.plan.shards.length);
  });

  it('no parent issue (a branch without an id, no --issue): skipped with one diagnostic; --issue names it', async () => {
    const w = await world('main-work');
    const skipped = await w.sync();
    expect(skipped).toMatchObject({ kind: 'skipped', reason: 'no-parent' });
    expect(mock.requests).toHaveLength(0);
    expect(synced(await w.sync({ parentId: 'ANV-123' })).created).toHaveLength(w.plan.shards.length);
  });

  it('the tracker off or without a key: nothing is sent', async () => {
    const w = await world();
    const off = await syncShardsToTracker({ settings: DEFAULT_TRACKER_SETTINGS, env: { [LINEAR_ENDPOINT_ENV]: mock.url, LINEAR_API_KEY: KEY }, stateDir: stateDirOf(w.r), projectRoot: w.r.dir, planPath: 'PLAN.md', planText: PLAN, plan: w.plan, dir: w.dir, now: new Date() });
    expect(off).toMatchObject({ kind: 'skipped', reason: 'disabled' });
    const noKey = await syncShardsToTracker({ settings: SETTINGS, env: { [LINEAR_ENDPOINT_ENV]: mock.url }, stateDir: stateDirOf(w.r), projectRoot: w.r.dir, planPath: 'PLAN.md', planText: PLAN, plan: w.plan, dir: w.dir, now: new Date() });
    expect(noKey).toMatchObject({ kind: 'skipped', reason: 'no-key' });
    expect(mock.requests).toHaveLength(0);
  });
});
