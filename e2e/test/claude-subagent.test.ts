import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readSessionState } from '@agent-checkpoint/core';
import fg from 'fast-glob';
import { afterAll, describe, expect, it } from 'vitest';
import { RESTART_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import { readTranscript, withRouteRun, type RouteRun } from '../src/checkpoint/checkpoint-routes.ts';
import { SUBAGENT_NO_RESTART, SUBAGENT_RESTARTS, SUBAGENT_TASK } from '../src/checkpoint/checkpoint-scenarios.ts';
import { formatToolTimes, recordToolTimes } from '../src/checkpoint/tool-times.ts';
import { SKIP_REAL_CLIS } from '../src/harness/define-headless-agent-tests.ts';

/**
 * Claude Code's Agent tool with the real CLI and our real Stop hook: the parent hands the daemon
 * change to a (foreground) subagent, whose own tool calls go only to
 * `<session>/subagents/agent-<id>.jsonl`. The mock answers the subagent's requests from its own
 * script (they open with its task). Work the subagent did counts for the parent's turn: edit plus
 * restart passes; edit without restart is blocked with the restart, as if the parent had edited.
 */

afterAll(() => {
  console.log(formatToolTimes('claude-subagent.test.ts: wall time of agent-checkpoint-hook per stop'));
});

/** The subagent transcripts of the run's session. */
function subagentTranscripts(run: RouteRun): string[] {
  const main = run.session.transcriptPaths()[0];
  if (main === undefined) throw new Error('no main transcript');
  return fg.sync('subagents/agent-*.jsonl', { cwd: main.replace(/\.jsonl$/, ''), absolute: true });
}

/** The subagent ran its whole script against the mock, and only there its calls were recorded. */
function expectSubagentDidTheWork(run: RouteRun, subagentSteps: number, expectRestart: boolean): void {
  const subagentRequests = run.steps.filter((r) => r.thread === 'subagent:0');
  expect(subagentRequests.map((r) => r.stepIndex)).toEqual([...Array(subagentSteps).keys()]);
  const files = subagentTranscripts(run);
  expect(files, 'one subagent transcript').toHaveLength(1);
  const subagentText = readFileSync(files[0] ?? '', 'utf8');
  expect(subagentText).toContain(SUBAGENT_TASK);
  expect(toolUses(subagentText)).toEqual(expectRestart ? ['Read', 'Edit', 'Bash'] : ['Read', 'Edit']);
  expect(subagentText.includes(`"command":"${RESTART_COMMAND}"`)).toBe(expectRestart);
  // The parent's transcript holds the Agent call and its report, not the subagent's calls (the
  // parent's own restart after a checkpoint aside).
  expect(toolUses(readTranscript(run)).filter((name) => name !== 'Bash')).toEqual(['Agent']);
}

/** Names of the tool_use blocks of a Claude transcript, in order. */
function toolUses(transcript: string): string[] {
  return [...transcript.matchAll(/"type":"tool_use","id":"[^"]+","name":"([^"]+)"/g)].map((m) => m[1] ?? '');
}

/** Every model request was a scripted step (parent or subagent) or a side request. */
function expectOnlyScriptedRequests(run: RouteRun): void {
  expect(run.requests.filter((r) => !['step', 'side'].includes(r.answer) || r.missingTools !== undefined).map((r) => `${r.n} ${r.url} ${r.answer} ${r.thread ?? 'main'}`)).toEqual([]);
}

describe.skipIf(SKIP_REAL_CLIS)('a Claude subagent does the work (Agent tool, real CLI, real Stop hook)', () => {
  it('the subagent edits daemon code and runs `make restart`: the stop passes', async () => {
    await withRouteRun('claude-hook', { scenario: SUBAGENT_RESTARTS }, async (run) => {
      recordToolTimes(run);
      expect(run.stops.map((s) => [s.response.exitCode, s.response.stdout]), 'one stop, passed (a block shows its reason here)').toEqual([[0, '']]);
      expect(run.delivery).toBeUndefined();
      expect(run.steps.filter((r) => r.thread === undefined).map((r) => r.stepIndex)).toEqual([0, 1]);
      expectSubagentDidTheWork(run, 4, true);
      expectOnlyScriptedRequests(run);

      // getCheckpoint on the transcript the hook saw: the subagent's read, edit and restart are the
      // turn's calls, marked as the subagent's (the agent id of its transcript, the Agent call).
      const expected = await run.expected();
      expect([expected.decision, expected.mode]).toEqual(['silent', 'all-clear']);
      const agentId = path.basename(subagentTranscripts(run)[0] ?? '').replace(/^agent-|\.jsonl$/g, '');
      const origin = { kind: 'subagent', agentId, agentType: 'general-purpose', parentCallId: expect.stringMatching(/^toolu_e2e_s0_/) };
      const calls = expected.timeline?.calls ?? [];
      expect(calls.map((c) => [c.rawName, c.outcome])).toEqual([
        ['Agent', 'success'],
        ['Read', 'success'],
        ['Edit', 'success'],
        ['Bash', 'success'],
      ]);
      for (const call of calls.slice(1)) expect(call.origin).toEqual(origin);
      expect(calls[0]?.origin).toBeUndefined();
      expect(calls.find((c) => c.kind === 'shell')).toMatchObject({ command: RESTART_COMMAND });
    });
  });

  it('the subagent edits daemon code without the restart: blocked with `make restart`; the parent runs it; the next stop passes', async () => {
    await withRouteRun('claude-hook', { scenario: SUBAGENT_NO_RESTART }, async (run) => {
      recordToolTimes(run);
      expect(run.stops.map((s) => s.response.exitCode)).toEqual([0, 0]);
      const expected = await run.expected();
      expect(expected.mode).toBe('actionable');
      // The first stop's turn: the Agent call, then the subagent's read and edit, marked as its.
      expect(expected.timeline?.calls.map((c) => [c.rawName, c.outcome, c.origin?.kind ?? 'main'])).toEqual([
        ['Agent', 'success', 'main'],
        ['Read', 'success', 'subagent'],
        ['Edit', 'success', 'subagent'],
      ]);
      expect(run.hookOutputs[0]).toEqual({ decision: 'block', reason: expected.message });
      const reason = String(run.hookOutputs[0]?.['reason']);
      expect(reason).toContain('Changed: daemon code');
      expect(reason).toMatch(/^Required actions:\n1\. Run `make restart`$/m);
      expect(reason).not.toMatch(/^2\. /m);
      // The subagent read the file before editing it: no edit-without-read observation.
      expect(reason).not.toMatch(/without (being )?read/i);
      expect(run.hookOutputs[1]).toBeUndefined();

      // The checkpoint reached the parent; the mock branched on it and the parent restarted.
      expect(run.delivery?.checkpoint.text).toBe(reason);
      expect(run.steps.filter((r) => r.thread === undefined).map((r) => [r.stepIndex, r.branch])).toEqual([
        [0, undefined],
        [1, undefined],
        [2, 0],
        [3, undefined],
      ]);
      expectSubagentDidTheWork(run, 3, false);
      expectOnlyScriptedRequests(run);
      const { state } = await readSessionState({ stateDir: run.stateDir, agent: 'claude', sessionId: run.sessionId });
      expect(state.turns.map((t) => t.blocks)).toEqual([1]);
      expect(path.basename(subagentTranscripts(run)[0] ?? '')).toMatch(/^agent-[\w-]+\.jsonl$/);
    });
  });
});
