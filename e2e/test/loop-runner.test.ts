import path from 'node:path';
import { readSessionState } from '@agent-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { projectFiles } from '../src/checkpoint/checkpoint-project.ts';
import { checkpointEnv, routeAgent, stateDirOf, type CheckpointRoute } from '../src/checkpoint/checkpoint-routes.ts';
import { findDeliveredCheckpoint } from '../src/checkpoint/delivered-checkpoint.ts';
import { stopTimeline } from '../src/checkpoint/expected-checkpoint.ts';
import { LOOP_SCRIPT, LOOP_TASKS } from '../src/checkpoint/loop-scenario.ts';
import { realHookCommand } from '../src/harness/agent-checkpoint-bins.ts';
import type { SessionOptions } from '../src/harness/agent-session.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { runLoop, type LoopCapableSession } from '../src/harness/loop-runner.ts';
import { readJsonlFile } from '../src/harness/read-jsonl-file.ts';
import { ClaudeSession } from '../src/run-claude.ts';
import { CodexSession } from '../src/run-codex.ts';
import { GeminiSession } from '../src/run-gemini.ts';

/**
 * A loop runner around the real CLIs: a bash script runs `claude -p` / `codex exec` / `gemini -p`
 * three times, fresh each time, with our real hook installed, and commits everything right after
 * each run (`runLoop`: the commit opens a wall-clock second, so a fast CLI starts its next turn in
 * the second of the previous commit). Each turn edits a categorised file and runs that category's
 * action, alternating categories: a previous run's commit blamed on the next turn would show up as
 * a block for the other category's action. No run may be blocked.
 */

const ROUTES = ['claude-hook', 'codex-hook', 'gemini-hook'] as const satisfies readonly CheckpointRoute[];

/**
 * Routes whose CLI starts a turn within a second of being started, on this machine: the loop must
 * produce at least one turn that began in the second of the previous commit, or the test proves
 * nothing about same-second commits. Gemini's start-up (a large Node bundle that relaunches itself)
 * takes longer than a second, so its turns never share the commit's second; it is still run for the
 * no-false-block half.
 */
/**
 * Whether a run in the previous commit's second is required, sought or out of reach. Codex starts
 * 0.3–0.55 s after the commit: every loop has such runs, so it is required. Claude starts 0.65–1.8 s
 * after it: about half its runs land in the second, so up to {@link MAX_LOOPS} loops seek one, but
 * missing it is not a failure (that would make the test flaky; the rule itself is covered with
 * controlled sub-second commit times in core). Gemini starts 3–7 s after it: never.
 */
const SAME_SECOND: Readonly<Record<(typeof ROUTES)[number], 'required' | 'sought' | 'out-of-reach'>> = {
  'claude-hook': 'sought',
  'codex-hook': 'required',
  'gemini-hook': 'out-of-reach',
};

interface Measured {
  readonly route: string;
  readonly iteration: number;
  readonly commitToTurnStartMs: number;
  readonly sameSecond: boolean;
}
const measured: Measured[] = [];

afterAll(() => {
  if (measured.length === 0) return;
  const lines = measured.map(
    (m) => `  ${m.route} run ${m.iteration}: turn started ${Math.round(m.commitToTurnStartMs)} ms after the previous commit object was written; same second: ${String(m.sameSecond)}`,
  );
  console.log(['loop-runner.test.ts: previous commit → next turn start', ...lines].join('\n'));
});

function startSession(route: (typeof ROUTES)[number], options: SessionOptions): Promise<LoopCapableSession> {
  switch (route) {
    case 'claude-hook':
      return ClaudeSession.start(options);
    case 'codex-hook':
      return CodexSession.start(options);
    case 'gemini-hook':
      return GeminiSession.start(options);
  }
}

/**
 * One loop (fresh repository and CLI home) with everything asserted; returns how many runs started
 * their turn in the wall-clock second of the previous run's commit.
 */
async function loopOnce(route: (typeof ROUTES)[number]): Promise<number> {
  const agent = routeAgent(route);
  const options: SessionOptions = {
    scenario: LOOP_SCRIPT,
    files: projectFiles(),
    hook: { kind: 'command', command: realHookCommand(agent) },
    env: (workspace) => checkpointEnv(workspace, { debug: true }),
  };
  let sameSecondRuns = 0;
  await withCheckedSession(startSession(route, options), async (session) => {
    sameSecondRuns = await assertLoop(route, session);
  });
  return sameSecondRuns;
}

async function assertLoop(route: (typeof ROUTES)[number], session: LoopCapableSession): Promise<number> {
  const agent = routeAgent(route);
  const loop = await runLoop(
    session,
    LOOP_TASKS.map((task) => task.prompt),
    { timeoutMs: 200_000 },
  );
  for (const iteration of loop.iterations) {
    expect([iteration.index, iteration.cliExitCode, iteration.commitExitCode], `run ${iteration.index}, stderr:\n${iteration.stderr.slice(-2000)}`).toEqual([iteration.index, 0, 0]);
  }

  // One stop per run, in order; each passed: exit 0 and nothing on stdout.
  const stops = session.hookInvocations();
  expect(stops.map((stop) => [stop.response.exitCode, stop.response.stdout]), 'every stop passed (a block shows its reason here)').toEqual(LOOP_TASKS.map(() => [0, '']));

  // Each stop judged its own run's turn, which edited the file and ran the action.
  const timelines = await Promise.all(stops.map((stop) => stopTimeline(route, stop)));
  timelines.forEach((timeline, i) => {
    const task = LOOP_TASKS[i];
    if (task === undefined) throw new Error('more stops than tasks');
    expect(timeline.hasData, `run ${i + 1}: transcript read`).toBe(true);
    expect(timeline.prompt).toBe(task.prompt);
    expect(timeline.checkpointsDelivered, `run ${i + 1}: no checkpoint in the transcript`).toBe(0);
    expect(timeline.calls.some((c) => (c.kind === 'edit' || c.kind === 'patch') && c.outcome === 'success' && c.paths.some((p) => p.endsWith(task.file)))).toBe(true);
    expect(timeline.calls.filter((c) => c.kind === 'shell' && c.command === task.action).map((c) => c.outcome)).toEqual(['success']);
  });

  // Our hook's own verdict per stop: all clear (changes seen, every action done), never a
  // pass for another reason (no transcript, loop guard, error).
  const verdicts = readJsonlFile<{ message?: string; verdict?: string }>(path.join(stateDirOf(session.workspace), 'debug.log')).filter((l) => l.verdict !== undefined);
  expect(verdicts.map((v) => [v.verdict, v.message])).toEqual(LOOP_TASKS.map(() => ['pass', 'silent: getCheckpoint is silent (all-clear)']));
  // No model request carried a checkpoint, and the model never ran past its script.
  expect(session.requests.filter((r) => r.answer === 'step' && findDeliveredCheckpoint(route, r.body) !== undefined)).toEqual([]);
  expect(session.requests.filter((r) => !['step', 'side', 'title'].includes(r.answer) || r.missingTools !== undefined).map((r) => `${r.n} ${r.url} ${r.answer}`)).toEqual([]);
  for (const stop of stops) {
    const sessionId = String(stop.payload?.['session_id']);
    const { state } = await readSessionState({ stateDir: stateDirOf(session.workspace), agent, sessionId });
    expect(state.turns.map((t) => t.blocks).filter((b) => b > 0)).toEqual([]);
  }

  // The case the loop is about: a run whose turn started in the same wall-clock second as the
  // previous run's commit (git's committer time has whole seconds), while that commit was
  // written before the turn started.
  const sameSecond = loop.iterations.slice(1).map((iteration) => {
    const previous = loop.iterations[iteration.index - 2];
    const startedAt = Date.parse(timelines[iteration.index - 1]?.startedAt ?? '');
    if (previous === undefined || Number.isNaN(startedAt)) throw new Error(`run ${iteration.index}: no turn start or previous commit`);
    expect(previous.commit.objectMtimeMs, `run ${iteration.index}: the previous commit precedes the turn`).toBeLessThan(startedAt);
    const same = Math.floor(startedAt / 1000) === previous.commit.committerSecond;
    measured.push({ route, iteration: iteration.index, commitToTurnStartMs: startedAt - previous.commit.objectMtimeMs, sameSecond: same });
    return same;
  });
  return sameSecond.filter(Boolean).length;
}

/** Loops run per agent at most, until one of their runs started in the second of a commit. */
const MAX_LOOPS = 3;

describe.skipIf(SKIP_REAL_CLIS)('a loop runner that commits after each headless run', () => {
  // oxlint-disable-next-line vitest/expect-expect -- each loopOnce() asserts its runs (assertLoop)
  it.each(ROUTES)('%s: three runs, each edits a categorised file and runs its action, the loop commits after each: no run is blocked', async (route) => {
    // Start-up time varies with the machine's load: a loop whose runs all started after the
    // commit's second proved nothing about same-second commits, so run another (fresh) one, up to
    // MAX_LOOPS. Every loop must be free of blocks either way.
    let sameSecondRuns = 0;
    let loops = 0;
    while (loops < MAX_LOOPS && (loops === 0 || (SAME_SECOND[route] !== 'out-of-reach' && sameSecondRuns === 0))) {
      loops += 1;
      sameSecondRuns += await loopOnce(route);
    }
    if (SAME_SECOND[route] === 'sought' && sameSecondRuns === 0) console.log(`${route}: no run started in a commit's second in ${loops} loop(s); no false block either way`);
    if (SAME_SECOND[route] === 'required') expect(sameSecondRuns, `runs that started in the second of the previous commit, in ${loops} loop(s)`).toBeGreaterThanOrEqual(1);
  });
});
