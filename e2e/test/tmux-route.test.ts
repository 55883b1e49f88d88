import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readSessionState } from '@agent-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { RESTART_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import { withRouteRun } from '../src/checkpoint/checkpoint-routes.ts';
import { DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { expectedCheckpoint } from '../src/checkpoint/expected-checkpoint.ts';
import { formatToolTimes, recordToolTimes } from '../src/checkpoint/tool-times.ts';
import { TMUX_BUNDLE } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS } from '../src/harness/define-headless-agent-tests.ts';
import { CodexTuiSession } from '../src/run-codex-tui.ts';

/**
 * The tmux route with the real Codex TUI: no Stop hook (the route is for sessions without hooks),
 * `notify` runs the bundled `agent-checkpoint-tmux.mjs`, which types the checkpoint into the pane
 * where Codex runs; Codex submits it as a new turn.
 */

afterAll(() => {
  console.log(formatToolTimes('tmux-route.test.ts: agent-checkpoint-tmux per main-thread turn'));
});

describe.skipIf(SKIP_REAL_CLIS)('agent-checkpoint-tmux as the Codex TUI notify program', () => {
  it('without `codex queue`: types the checkpoint after the turn, Codex submits it, the model runs `make restart`, and the next turn-complete types nothing', async () => {
    // A Codex build without `codex queue` (a `codex` wrapper on PATH rejects the subcommand): the
    // route falls back to typing, into the pane proven to run this thread (its rollout is open there).
    await withRouteRun('codex-tmux', { scenario: DAEMON_NOT_RESTARTED, tui: { codexWrapper: 'no-queue' } }, async (run) => {
      recordToolTimes(run);
      const session = run.session as CodexTuiSession;
      // Installed as a user without hooks would: notify only (our program first, the recording
      // probe chained after `--`), no hooks.json.
      const config = readFileSync(path.join(session.codexHome, 'config.toml'), 'utf8');
      expect(config).toContain(`notify = ["node", ${JSON.stringify(TMUX_BUNDLE)}, "--", `);
      expect(existsSync(path.join(session.codexHome, 'hooks.json'))).toBe(false);

      // Two main-thread turns: the prompt's, and the one our checkpoint opened.
      const [first, second] = run.stops;
      expect(run.stops).toHaveLength(2);
      expect(second?.payload?.['turn-id']).not.toBe(first?.payload?.['turn-id']);
      expect(run.tmuxDecisions.map((d) => [d.turnId, d.outcome])).toEqual([
        [first?.payload?.['turn-id'], 'delivered'],
        // The turn that answered our checkpoint gets none: recognised by its delivered digest (never by the prefix alone).
        [second?.payload?.['turn-id'], 'skipped: this turn answered our own checkpoint'],
      ]);

      // What was typed is exactly what core's getCheckpoint says for the first turn…
      const expected = await run.expected();
      expect(expected.mode).toBe('actionable');
      const message = expected.message ?? '';
      expect(message).toMatch(/^Required actions:\n1\. Run `make restart`$/m);
      expect(message).toContain(`agent-checkpoint-hook off --session ${run.sessionId}`);
      // …and the model received it, unchanged, as the last user input of the new turn.
      expect(run.delivery?.checkpoint.raw).toBe(message);
      expect(run.delivery?.request.view?.lastUserText).toBe(message);
      expect(second?.payload?.['input-messages']).toEqual([DAEMON_NOT_RESTARTED.prompt, message]);

      // The mock branched on our prefix: the model ran `make restart`; nothing ran past the script.
      expect(run.steps.map((s) => [s.stepIndex, s.branch])).toEqual([
        [0, undefined],
        [1, undefined],
        [2, undefined],
        [3, undefined],
        [4, undefined],
        [5, 0],
        [6, undefined],
      ]);
      expect(run.requests.filter((r) => !['step', 'title'].includes(r.answer)).map((r) => `${r.n} ${r.answer}`)).toEqual([]);
      expect(second?.payload?.['last-assistant-message']).toBe(DAEMON_NOT_RESTARTED.finalText);
      expect(JSON.stringify(run.steps[6]?.body)).toContain('daemon restarted');
      const screen = session.tmux.capture();
      expect(screen).toContain(`Ran ${RESTART_COMMAND}`);

      // The shared loop guard recorded one checkpoint, for the prompt's turn.
      const { state } = await readSessionState({ stateDir: run.stateDir, agent: 'codex', sessionId: run.sessionId });
      expect(state.turns.map((t) => [t.turnId, t.blocks])).toEqual([[first?.payload?.['turn-id'], 1]]);
    });
  });

  it('with the Stop hook installed as well, the turn gets one checkpoint (in-band) and notify types nothing', async () => {
    await withRouteRun('codex-tmux', { scenario: DAEMON_NOT_RESTARTED, withStopHook: true }, async (run) => {
      recordToolTimes(run);
      // The Stop hook blocked once (the reason reached the model as <hook_prompt>), then passed.
      const hooks = run.session.hookInvocations();
      expect(hooks.map((h) => [h.payload?.['stop_hook_active'], h.response.stdout === ''])).toEqual([
        [false, false],
        [true, true],
      ]);
      const first = hooks[0];
      if (first === undefined) throw new Error('no Stop hook call');
      const expected = await expectedCheckpoint('codex-hook', first, run.session.env());
      expect(expected.mode).toBe('actionable');
      expect(JSON.parse(first.response.stdout)).toEqual({ decision: 'block', reason: expected.message });
      // One main-thread turn, whose notify found it already checkpointed: nothing typed.
      expect(run.stops).toHaveLength(1);
      expect(run.tmuxDecisions.map((d) => d.outcome)).toEqual([expect.stringMatching(/^skipped: loop guard: turn-limit-reached \(1 of 1 checkpoint\(s\) already delivered in turn /)]);
      expect(run.steps.map((s) => [s.stepIndex, s.branch])).toEqual([
        [0, undefined],
        [1, undefined],
        [2, undefined],
        [3, undefined],
        [4, undefined],
        [5, 0],
        [6, undefined],
      ]);
      expect(run.requests.filter((r) => !['step', 'title'].includes(r.answer)).map((r) => `${r.n} ${r.answer}`)).toEqual([]);
      const { state } = await readSessionState({ stateDir: run.stateDir, agent: 'codex', sessionId: run.sessionId });
      expect(state.turns.map((t) => t.blocks)).toEqual([1]);
    });
  });
});
