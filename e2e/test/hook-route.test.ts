import path from 'node:path';
import { readSessionState } from '@agent-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKPOINT_PREFIX, RESTART_COMMAND, TEST_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import { readTranscript, withRouteRun, type CheckpointRoute, type RouteRun } from '../src/checkpoint/checkpoint-routes.ts';
import { ALL_DONE, DAEMON_NOT_RESTARTED, TYPO_CORRECTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { codexHookPromptTexts } from '../src/checkpoint/delivered-checkpoint.ts';
import { formatToolTimes, recordToolTimes } from '../src/checkpoint/tool-times.ts';
import { SKIP_REAL_CLIS } from '../src/harness/define-headless-agent-tests.ts';
import { readJsonlFile } from '../src/harness/read-jsonl-file.ts';

/**
 * Our real hook (the bundled `agent-checkpoint-hook.cjs`, installed as each CLI's Stop/AfterAgent
 * command) in the real CLIs, against the scripted model mock: it blocks once with exactly what
 * `getCheckpoint` says, the reason reaches the model in the agent's own wrapping, the model acts on
 * it, and the next stop passes; a turn with nothing missing gets silence.
 */

const HOOK_ROUTES = ['claude-hook', 'gemini-hook', 'codex-hook', 'copilot-hook', 'qwen-hook', 'pi-hook'] as const satisfies readonly CheckpointRoute[];

/** The JSON decision word each agent's block uses (delivery-hook README). */
const BLOCK_DECISION: Record<(typeof HOOK_ROUTES)[number], string> = { 'claude-hook': 'block', 'gemini-hook': 'deny', 'codex-hook': 'block', 'copilot-hook': 'block', 'qwen-hook': 'block', 'pi-hook': 'block' };

/**
 * `stop_hook_active` on the stop after our block: Claude and Codex keep it true for the rest of the
 * turn; Gemini resets it once the model made a tool call (here: `make restart`), so there the
 * second stop passes on our own loop guard, not on the flag. Copilot and Qwen keep it true like Claude;
 * so does our Pi extension (it counts its own follow-ups).
 */
const STOP_HOOK_ACTIVE_AFTER_BLOCK: Record<(typeof HOOK_ROUTES)[number], boolean> = { 'claude-hook': true, 'gemini-hook': false, 'codex-hook': true, 'copilot-hook': true, 'qwen-hook': true, 'pi-hook': true };

const escapeXml = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The reason exactly as the agent puts it in front of the model (see delivered-checkpoint.ts). */
function expectNativeWrapping(run: RouteRun, reason: string): void {
  const raw = run.delivery?.checkpoint.raw ?? '';
  switch (run.route) {
    case 'claude-hook':
      expect(raw).toBe(`Stop hook feedback:\n${reason}`);
      break;
    case 'gemini-hook':
    case 'qwen-hook':
    case 'pi-hook':
      expect(raw).toBe(reason);
      break;
    case 'codex-hook':
      expect(raw).toMatch(/^<hook_prompt hook_run_id="stop:\d+:[^"]+\/hooks\.json">/);
      expect(raw.replace(/^<hook_prompt [^>]*>/, '').replace(/<\/hook_prompt>$/, '')).toBe(escapeXml(reason));
      break;
    case 'copilot-hook':
      expect(raw).toMatch(/^<current_datetime>[^<]+<\/current_datetime>\n\n/);
      expect(raw.replace(/^<current_datetime>[^<]+<\/current_datetime>\n\n/, '')).toBe(reason);
      break;
    case 'codex-queue':
    case 'codex-tmux':
      throw new Error('not a hook route');
  }
}

/** Every model request was a scripted step (or a side request); none ran past the script. */
function expectOnlyScriptedRequests(run: RouteRun): void {
  expect(run.requests.filter((r) => !['step', 'side', 'title'].includes(r.answer) || r.missingTools !== undefined).map((r) => `${r.n} ${r.url} ${r.answer}`)).toEqual([]);
}

afterAll(() => {
  console.log(formatToolTimes('hook-route.test.ts: wall time of agent-checkpoint-hook per stop'));
});

describe.skipIf(SKIP_REAL_CLIS)('agent-checkpoint-hook in the real CLIs', () => {
  // The capture reminder (issue 20): the teleclaude preset ends every checkpoint with it, as seeds
  // 000/001 do. The project extends the preset and keeps the tests' prefix, so the mock still knows
  // the checkpoint; everything else (header, footer steps, policy) is the preset's.
  describe('claude-hook with the teleclaude preset', () => {
    it('the preset’s capture reminder closes the delivered checkpoint, before the escape hatch; the next stop passes', async () => {
      const project = { extraConfig: { extends: 'teleclaude', messages: { prefix: CHECKPOINT_PREFIX } } };
      await withRouteRun('claude-hook', { scenario: DAEMON_NOT_RESTARTED, project }, async (run) => {
        recordToolTimes(run);
        expect(run.stops.map((s) => [s.response.exitCode, s.response.stderr])).toEqual([
          [0, ''],
          [0, ''],
        ]);
        const reason = String(run.hookOutputs[0]?.['reason']);
        const expected = await run.expected();
        expect(expected.mode).toBe('actionable');
        expect(reason).toBe(expected.message);
        expect(reason).toMatch(/^Required actions \(BLOCKING/m);
        const sections = reason.split('\n\n');
        expect(sections.at(-2)).toBe('Capture anything worth keeping (memories, bugs, ideas).');
        expect(sections.at(-1)).toMatch(/^Escape hatch \(last resort only/);
        // The model got it, acted on the checkpoint, and the next stop passed.
        expect(run.delivery?.checkpoint.text).toBe(reason);
        expect(run.hookOutputs[1]).toBeUndefined();
        expect(readTranscript(run)).toContain(RESTART_COMMAND);
        expectOnlyScriptedRequests(run);
      });
    });
  });

  describe.each(HOOK_ROUTES)('%s', (route) => {
    it('blocks once with the checkpoint of the turn; the model runs `make restart`; the next stop passes', async () => {
      await withRouteRun(route, { scenario: DAEMON_NOT_RESTARTED }, async (run) => {
        recordToolTimes(run);
        // Two stops: our block, then a silent pass. Exit 0 and nothing on stderr both times.
        expect(run.stops.map((s) => [s.response.exitCode, s.response.stderr])).toEqual([
          [0, ''],
          [0, ''],
        ]);
        expect(run.stops.map((s) => s.payload?.['stop_hook_active'])).toEqual([false, STOP_HOOK_ACTIVE_AFTER_BLOCK[route]]);
        expect(run.hookOutputs[1]).toBeUndefined();
        const block = run.hookOutputs[0];
        expect(block).toEqual({ decision: BLOCK_DECISION[route], reason: expect.any(String) });
        const reason = String(block?.['reason']);

        // Exactly what core's getCheckpoint says for this repository and the transcript the hook saw.
        const expected = await run.expected();
        expect(expected.mode).toBe('actionable');
        expect(reason).toBe(expected.message);
        // The key lines: only the restart is missing (the test re-run after the fix was seen).
        expect(reason.startsWith(`${CHECKPOINT_PREFIX}`)).toBe(true);
        expect(reason).toContain('Changed: daemon code, calculator code');
        expect(reason).toMatch(/^Required actions:\n1\. Run `make restart`$/m);
        expect(reason).not.toMatch(/^2\. /m);
        expect(reason).not.toContain(TEST_COMMAND);
        expect(reason).toContain(`agent-checkpoint-hook off --session ${run.sessionId}`);

        // The next model request carried the reason, in the agent's own wrapping, and the mock
        // branched on our prefix: the model ran `make restart`, and its output came back.
        expect(run.delivery?.checkpoint.text).toBe(reason);
        expectNativeWrapping(run, reason);
        expect(run.steps.map((s) => [s.stepIndex, s.branch])).toEqual([
          [0, undefined],
          [1, undefined],
          [2, undefined],
          [3, undefined],
          [4, undefined],
          [5, 0],
          [6, undefined],
        ]);
        expect(run.delivery?.request.stepIndex).toBe(5);
        expect(JSON.stringify(run.steps[6]?.body)).toContain('daemon restarted');
        expectOnlyScriptedRequests(run);

        // The loop guard recorded one block for the one real user turn.
        const { state } = await readSessionState({ stateDir: run.stateDir, agent: run.agent, sessionId: run.sessionId });
        expect(state.turns.map((t) => t.blocks)).toEqual([1]);

        // The agent's own record of the block.
        const transcript = readTranscript(run);
        if (route === 'codex-hook') expect(codexHookPromptTexts(run.session.transcriptPaths()[0] ?? '')).toEqual([reason]);
        if (route === 'claude-hook') {
          const summaries = transcript
            .split('\n')
            .filter((l) => l.includes('"stop_hook_summary"'))
            .map((l) => JSON.parse(l) as { hookErrors?: string[] });
          expect(summaries.map((s) => s.hookErrors)).toEqual([[reason], []]);
        }
        expect(transcript).toContain(RESTART_COMMAND);
      });
    });

    it('stays silent when the turn already did everything (test re-run after the fix, restart)', async () => {
      await withRouteRun(route, { scenario: ALL_DONE }, async (run) => {
        recordToolTimes(run);
        // The hook ran once, printed nothing, and the run ended at that stop.
        expect(run.stops).toHaveLength(1);
        expect(run.stops[0]?.response).toMatchObject({ action: 'exec', exitCode: 0, stdout: '', stderr: '' });
        const expected = await run.expected();
        expect([expected.decision, expected.mode]).toEqual(['silent', 'all-clear']);
        expect(run.delivery).toBeUndefined();
        expect(run.steps.map((s) => s.stepIndex)).toEqual([0, 1, 2, 3, 4, 5]);
        expectOnlyScriptedRequests(run);
      });
    });
  });

  describe.each(HOOK_ROUTES)('%s', (route) => {
    it('a typo\'d command corrected in the same turn passes (`make restrat` → `make restart`)', async () => {
      await withRouteRun(route, { scenario: TYPO_CORRECTED }, async (run) => {
        recordToolTimes(run);
        const expected = await run.expected();
        // The typo really failed in the agent's shell, and the timeline says so.
        const typo = expected.timeline?.calls.find((c) => c.kind === 'shell' && c.command.includes('make restrat'));
        expect(typo?.outcome, 'precondition: `make restrat` failed').toBe('error');
        expect([expected.decision, expected.mode]).toEqual(['silent', 'all-clear']);
        expect(run.stops).toHaveLength(1);
        expect(run.stops[0]?.response).toMatchObject({ exitCode: 0, stdout: '' });
        expect(run.delivery).toBeUndefined();
        expectOnlyScriptedRequests(run);
      });
    });
  });

  it.each(HOOK_ROUTES)('%s: with the default loop guard, a quick (< 30 s) turn that edited daemon code without the restart is blocked', async (route) => {
    const options = { scenario: DAEMON_NOT_RESTARTED, project: { minTurnSeconds: 'default' as const }, hookDebug: true };
    await withRouteRun(route, options, async (run) => {
      recordToolTimes(run);
      const expected = await run.expected();
      expect(expected.mode).toBe('actionable');
      const startedAt = expected.timeline?.startedAt;
      expect(startedAt, 'turn start in the timeline').toBeDefined();
      const turnSeconds = (Date.parse(run.stops[0]?.at ?? '') - Date.parse(startedAt ?? '')) / 1000;
      expect(turnSeconds, 'precondition: this turn must be shorter than 30 s').toBeLessThan(30);
      // Every turn is checked however quick: one block, with getCheckpoint's message; then the model
      // runs `make restart` and the next stop passes.
      expect(run.stops).toHaveLength(2);
      const reason = String(run.hookOutputs[0]?.['reason']);
      expect(run.hookOutputs[0]).toEqual({ decision: BLOCK_DECISION[route], reason: expected.message });
      expect(reason).toMatch(/^Required actions:\n1\. Run `make restart`$/m);
      expect(run.hookOutputs[1]).toBeUndefined();
      const debug = readJsonlFile<{ message?: string; verdict?: string }>(path.join(run.stateDir, 'debug.log'));
      expect(debug.some((l) => /turn-too-short|too-soon-after-checkpoint/.test(l.message ?? ''))).toBe(false);
      const { state } = await readSessionState({ stateDir: run.stateDir, agent: run.agent, sessionId: run.sessionId });
      expect(state.turns.map((t) => t.blocks)).toEqual([1]);
    });
  });
});
