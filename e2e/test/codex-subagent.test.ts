import { readFileSync } from 'node:fs';
import { readSessionState } from '@agent-checkpoint/core';
import fg from 'fast-glob';
import { afterAll, describe, expect, it } from 'vitest';
import { RESTART_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import { withRouteRun, type RouteRun } from '../src/checkpoint/checkpoint-routes.ts';
import { CODEX_CODE_MODE_MODEL, CODEX_SUBAGENT_NO_RESTART, CODEX_SUBAGENT_RESTARTS, CODEX_SUBAGENT_TASK } from '../src/checkpoint/checkpoint-scenarios.ts';
import { formatToolTimes, recordToolTimes } from '../src/checkpoint/tool-times.ts';
import { SKIP_REAL_CLIS } from '../src/harness/define-headless-agent-tests.ts';
import type { CodexSession } from '../src/run-codex.ts';

/**
 * Codex 0.169's multi-agent mode with the real CLI and our real Stop hook: in code mode
 * (`gpt-6.1-sol`) the parent calls `spawn_agent` (collaboration namespace) and `wait_agent`; the
 * subagent runs as a thread with a rollout of its own, where its cells' nested calls are recorded.
 * The mock answers the subagent's requests from its own script (they open with its task). Work the
 * subagent did counts for the parent's turn: edit plus restart passes; edit without restart is
 * blocked with the restart, as if the parent had edited.
 */

afterAll(() => {
  console.log(formatToolTimes('codex-subagent.test.ts: wall time of agent-checkpoint-hook per stop'));
});

/** Every rollout of the run: the parent's and the subagent's. */
function rollouts(run: RouteRun): string[] {
  return fg.sync('sessions/**/rollout-*.jsonl', { cwd: (run.session as CodexSession).codexHome, absolute: true }).sort();
}

/** The subagent's rollout: the one whose session_meta names the parent thread. */
function subagentRollout(run: RouteRun): string {
  const files = rollouts(run).filter((file) => file.endsWith(`-${run.sessionId}.jsonl`) === false);
  expect(files, 'one subagent rollout').toHaveLength(1);
  const text = readFileSync(files[0] ?? '', 'utf8');
  expect(text).toContain(`"parent_thread_id":"${run.sessionId}"`);
  return text;
}

/** The subagent ran its whole script against the mock, and only there its nested calls were recorded. */
function expectSubagentDidTheWork(run: RouteRun, subagentSteps: number, expectRestart: boolean): void {
  expect(run.requests.filter((r) => r.thread === 'subagent:0').map((r) => r.stepIndex)).toEqual([...Array(subagentSteps).keys()]);
  const child = subagentRollout(run);
  expect(child).toContain(CODEX_SUBAGENT_TASK);
  expect(child).toContain('"type":"FileChange"');
  expect(child.includes(`"command":["/bin/bash","-lc","${RESTART_COMMAND}"]`)).toBe(expectRestart);
  const parent = readFileSync(rollouts(run).find((file) => file.endsWith(`-${run.sessionId}.jsonl`)) ?? '', 'utf8');
  expect(parent).not.toContain('"type":"FileChange"');
  expect(parent).toContain('"type":"SubAgentActivity"');
}

/** Every model request was a scripted step (parent or subagent) or a title request. */
function expectOnlyScriptedRequests(run: RouteRun): void {
  expect(run.requests.filter((r) => !['step', 'title'].includes(r.answer) || r.missingTools !== undefined).map((r) => `${r.n} ${r.answer} ${r.thread ?? 'main'} ${String(r.missingTools)}`)).toEqual([]);
}

describe.skipIf(SKIP_REAL_CLIS)('a Codex subagent does the work (spawn_agent, real CLI, real Stop hook)', () => {
  it('the subagent edits daemon code and runs `make restart`: the stop passes', async () => {
    await withRouteRun('codex-hook', { scenario: CODEX_SUBAGENT_RESTARTS, codexModel: CODEX_CODE_MODE_MODEL }, async (run) => {
      recordToolTimes(run);
      expect(run.hookOutputs, 'no stop blocked (a block shows its reason here)').toEqual(run.stops.map(() => undefined));
      expect(run.delivery).toBeUndefined();
      expectSubagentDidTheWork(run, 4, true);
      expectOnlyScriptedRequests(run);

      // getCheckpoint on the parent's rollout: the subagent's read, edit and restart are the turn's
      // calls, marked with the subagent's thread id, its task path and the spawn_agent call.
      const expected = await run.expected();
      expect([expected.decision, expected.mode]).toEqual(['silent', 'all-clear']);
      const calls = expected.timeline?.calls ?? [];
      expect(calls.map((c) => [c.rawName, c.outcome, c.origin?.kind ?? 'main'])).toEqual([
        ['spawn_agent', 'success', 'main'],
        // Called before the subagent worked: its calls come during the wait, by time.
        ['wait_agent', 'success', 'main'],
        ['exec', 'success', 'subagent'],
        ['CommandExecution', 'success', 'subagent'],
        ['exec', 'success', 'subagent'],
        ['FileChange', 'success', 'subagent'],
        ['exec', 'success', 'subagent'],
        ['CommandExecution', 'success', 'subagent'],
      ]);
      const origin = calls.find((c) => c.origin !== undefined)?.origin;
      expect(origin).toEqual({ kind: 'subagent', agentId: expect.stringMatching(/^[0-9a-f-]{36}$/), agentType: '/root/greeter', parentCallId: calls[0]?.id });
      expect(calls.filter((c) => c.kind === 'shell').map((c) => (c.kind === 'shell' ? c.command : ''))).toEqual(['cat daemon/server.mjs', RESTART_COMMAND]);
    });
  });

  it('the subagent edits daemon code without the restart: blocked with `make restart`; the parent runs it; the next stop passes', async () => {
    await withRouteRun('codex-hook', { scenario: CODEX_SUBAGENT_NO_RESTART, codexModel: CODEX_CODE_MODE_MODEL }, async (run) => {
      recordToolTimes(run);
      const expected = await run.expected();
      expect(expected.mode).toBe('actionable');
      expect(expected.timeline?.calls.map((c) => [c.rawName, c.origin?.kind ?? 'main'])).toEqual([
        ['spawn_agent', 'main'],
        ['wait_agent', 'main'],
        ['exec', 'subagent'],
        ['CommandExecution', 'subagent'],
        ['exec', 'subagent'],
        ['FileChange', 'subagent'],
      ]);
      // Codex runs the Stop hook for the parent thread only: the subagent's turn is judged as the parent's.
      expect(run.session.hookInvocations().map((s) => s.payload?.['session_id'])).toEqual([run.sessionId, run.sessionId]);
      const blocks = run.hookOutputs.filter((output) => output !== undefined);
      expect(blocks).toEqual([{ decision: 'block', reason: expected.message }]);
      const reason = String(blocks[0]?.['reason']);
      expect(reason).toContain('Changed: daemon code');
      expect(reason).toMatch(/^Required actions:\n1\. Run `make restart`$/m);
      expect(reason).not.toMatch(/^2\. /m);
      expect(reason).not.toMatch(/without (being )?read/i);

      // The checkpoint reached the parent; the mock branched on it and the parent restarted.
      expect(run.delivery?.checkpoint.text).toBe(reason);
      expect(run.steps.filter((r) => r.thread === undefined).map((r) => [r.stepIndex, r.branch])).toEqual([
        [0, undefined],
        [1, undefined],
        [2, undefined],
        [3, 0],
        [4, undefined],
      ]);
      expectSubagentDidTheWork(run, 3, false);
      expectOnlyScriptedRequests(run);
      const { state } = await readSessionState({ stateDir: run.stateDir, agent: 'codex', sessionId: run.sessionId });
      expect(state.turns.map((t) => t.blocks)).toEqual([1]);
    });
  });
});
