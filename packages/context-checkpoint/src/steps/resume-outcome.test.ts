import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agent-checkpoint/core/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { shellCall, timelineOf } from '../handoff/test-timeline.ts';
import { readLoopState } from '../loop/loop-state.ts';
import { nextLoopIteration, pendingLoopHandoff, recordLoopTurn, startLoop } from '../loop/loop-steps.ts';
import { reportFromLog } from '../metrics/build-report.ts';
import { readMetricsEvents } from '../metrics/metrics-events.ts';
import { recordLoopResume, recordSessionResume, settleResumeAtCompaction, settleResumeAtTurnEnd } from './resume-outcome.ts';

// Resume outcomes (issue 21, build item 4): the resume success rate is measured, not always n/a.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function place() {
  const d = makeTempDir();
  cleanups.push(d.remove);
  const projectRoot = join(d.dir, 'repo');
  mkdirSync(projectRoot);
  const stateDir = join(d.dir, 'state');
  return { projectRoot, stateDir, location: { stateDir, agent: 'claude' as const, sessionId: 'sess-1' } };
}

const NOW = new Date('2026-01-07T12:00:00.000Z');
const WORKED = timelineOf([shellCall('c1', 'pnpm test', 'success', 0)]);
const IDLE = timelineOf([], { lastAssistantMessage: 'Shall I continue?' });
const FAILED_ONLY = timelineOf([shellCall('c1', 'pnpm test', 'error', 1)]);

async function resumes(p: { stateDir: string; projectRoot: string }) {
  return (await reportFromLog(p)).report.resumes;
}

describe('resume outcomes of a session given a handoff at its start', () => {
  it('the first turn end that did work records "continued", once; a turn without a successful call records nothing', async () => {
    const p = place();
    expect(await recordSessionResume({ ...p, agent: 'claude', sessionId: 'sess-1', handoffName: '2026-01-07-1145', now: NOW })).toEqual([]);
    expect(await resumes(p)).toEqual({ consumed: 1, completed: 0, notCompleted: 0, outcomeUnknown: 1 });

    await settleResumeAtTurnEnd({ location: p.location, projectRoot: p.projectRoot, timeline: IDLE, now: NOW });
    await settleResumeAtTurnEnd({ location: p.location, projectRoot: p.projectRoot, timeline: FAILED_ONLY, now: NOW });
    expect(await resumes(p)).toMatchObject({ outcomeUnknown: 1 });

    await settleResumeAtTurnEnd({ location: p.location, projectRoot: p.projectRoot, timeline: WORKED, now: NOW });
    await settleResumeAtTurnEnd({ location: p.location, projectRoot: p.projectRoot, timeline: WORKED, now: NOW });
    await settleResumeAtCompaction(p.location, p.projectRoot, NOW);
    expect(await resumes(p)).toEqual({ consumed: 1, completed: 1, notCompleted: 0, outcomeUnknown: 0, successRate: 1 });
    const outcomes = (await readMetricsEvents(p)).records.filter((e) => e.type === 'resume-outcome');
    expect(outcomes).toEqual([{ type: 'resume-outcome', at: NOW.toISOString(), handoff: '2026-01-07-1145', completed: true }]);
  });

  it('a compaction before any work records "not continued"; the next resume in the session is settled on its own', async () => {
    const p = place();
    await recordSessionResume({ ...p, agent: 'claude', sessionId: 'sess-1', handoffName: 'a', now: NOW });
    await settleResumeAtCompaction(p.location, p.projectRoot, NOW);
    await settleResumeAtTurnEnd({ location: p.location, projectRoot: p.projectRoot, timeline: WORKED, now: NOW });
    expect(await resumes(p)).toEqual({ consumed: 1, completed: 0, notCompleted: 1, outcomeUnknown: 0, successRate: 0 });

    // The PreCompact handoff of that session is resumed after the compaction: a new resume, settled by its work.
    await recordSessionResume({ ...p, agent: 'claude', sessionId: 'sess-1', handoffName: 'b', now: NOW });
    await settleResumeAtTurnEnd({ location: p.location, projectRoot: p.projectRoot, timeline: WORKED, now: NOW });
    expect(await resumes(p)).toEqual({ consumed: 2, completed: 1, notCompleted: 1, outcomeUnknown: 0, successRate: 0.5 });
  });
});

describe('loop resumes (an iteration that starts with the resume section)', () => {
  async function loopWithPendingHandoff(p: { projectRoot: string }, path: string) {
    await startLoop(p.projectRoot, NOW);
    await nextLoopIteration(p.projectRoot, NOW);
    await recordLoopTurn({ projectRoot: p.projectRoot, percent: 87, level: 'L2', handoffPath: path, now: NOW });
    await nextLoopIteration(p.projectRoot, NOW);
    const pending = await pendingLoopHandoff(p.projectRoot);
    if (pending.kind !== 'loop') throw new Error('no loop');
    return pending.state;
  }

  it('is counted as a resume, and continues when the iteration does work', async () => {
    const p = place();
    const path = '.agent-checkpoint/handoffs/2026-01-07-1145.md';
    const state = await loopWithPendingHandoff(p, path);
    expect(await recordLoopResume(p.projectRoot, state, path, { stateDir: p.stateDir, now: NOW })).toEqual([]);
    expect(await resumes(p)).toEqual({ consumed: 1, completed: 0, notCompleted: 0, outcomeUnknown: 1 });

    // No session location (no session id): the loop's own record still settles it.
    await settleResumeAtTurnEnd({ location: { ...p.location, sessionId: 'other' }, projectRoot: p.projectRoot, timeline: WORKED, now: NOW });
    expect(await resumes(p)).toEqual({ consumed: 1, completed: 1, notCompleted: 0, outcomeUnknown: 0, successRate: 1 });
    // The next iteration does not turn it into a failure.
    const next = await nextLoopIteration(p.projectRoot, NOW, undefined, p.stateDir);
    expect(next).toMatchObject({ notes: [] });
    expect(await resumes(p)).toMatchObject({ completed: 1, notCompleted: 0 });
    const read = await readLoopState(p.projectRoot);
    expect(read.kind === 'ok' ? read.state.last_resume : undefined).toEqual({ handoff_file: path, iteration: 2, outcome: 'continued' });
  });

  it('an iteration that ends (`loop next`) without a turn that did work records "not continued"', async () => {
    const p = place();
    const path = '.agent-checkpoint/handoffs/2026-01-07-1145.md';
    const state = await loopWithPendingHandoff(p, path);
    await recordLoopResume(p.projectRoot, state, path, { stateDir: p.stateDir, now: NOW });
    await settleResumeAtTurnEnd({ location: p.location, projectRoot: p.projectRoot, timeline: IDLE, now: NOW });
    await nextLoopIteration(p.projectRoot, NOW, undefined, p.stateDir);
    // Settled once: the iteration after that changes nothing.
    await nextLoopIteration(p.projectRoot, NOW, undefined, p.stateDir);
    expect(await resumes(p)).toEqual({ consumed: 1, completed: 0, notCompleted: 1, outcomeUnknown: 0, successRate: 0 });
  });
});
