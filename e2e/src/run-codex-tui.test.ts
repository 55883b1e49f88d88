import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_PREFIX } from './harness/agent-session.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from './harness/define-headless-agent-tests.ts';
import { branch, say, shell, tools, whenLastUserTextStartsWith } from './mock/scenario.ts';
import { waitForRunningCommand } from './record/drive-scenario.ts';
import { CodexTuiSession } from './run-codex-tui.ts';

const REASON = `${CHECKPOINT_PREFIX}run the tests`;

describe.skipIf(SKIP_REAL_CLIS)('codex TUI in tmux (real CLI against the mock)', () => {
  it('runs a blocked-once turn with notify, then interrupts a running command with Esc', async () => {
    const scenario = {
      name: 'tui',
      title: 'E2E title',
      steps: [
        tools(shell('echo e2e-tui-tool')),
        say('First pass done.'),
        branch([whenLastUserTextStartsWith(REASON, tools(shell('echo e2e-after-block')))], say('No checkpoint seen.')),
        say('Finished after the checkpoint.'),
        tools(shell('node slow.mjs', { yieldTimeMs: 120_000 })),
        say('unused: the turn is interrupted'),
      ],
    };
    const files = { 'slow.mjs': 'await new Promise((r) => setTimeout(r, 60_000));\n' };
    let socketName = '';
    let tmuxEnv: Record<string, string> = {};
    await withCheckedSession(CodexTuiSession.start({ scenario, files, hook: { kind: 'probe', blockOnce: { reason: REASON } } }), async (session) => {
      socketName = session.tmux.socketName;
      tmuxEnv = session.env();

      await session.submit('Run the probe command.');
      await session.waitForTurnsCompleted(1);
      const screen = session.tmux.capture();
      expect(screen).toContain('Blocked by hook');
      expect(screen).toContain(REASON);
      expect(screen).toContain('Finished after the checkpoint.');

      // Title-generation requests got the title and never consumed a step.
      const requests = session.requests;
      expect(requests.filter((r) => r.answer === 'title').length).toBeGreaterThan(0);
      expect(requests.filter((r) => !['step', 'title'].includes(r.answer))).toEqual([]);
      expect(requests.filter((r) => r.answer === 'step').map((r) => [r.stepIndex, r.branch])).toEqual([
        [0, undefined],
        [1, undefined],
        [2, 0],
        [3, undefined],
      ]);
      for (const r of requests) expect(String(r.headers['originator'])).toBe('codex-tui');

      const hooks = session.hookInvocations();
      expect(hooks.map((h) => [h.response.action, h.payload?.['stop_hook_active']])).toEqual([
        ['block', false],
        ['pass', true],
      ]);
      // The hook runs inside the pane's environment: TMUX_PANE tells a tmux deliverer where to type.
      expect(hooks[0]?.env['TMUX_PANE']).toBe(session.tmux.paneId());

      const notes = session.mainThreadNotifications();
      expect(notes.map((n) => [n.payload?.['client'], n.payload?.['last-assistant-message']])).toEqual([['codex-tui', 'Finished after the checkpoint.']]);
      expect(session.notifications().length).toBeGreaterThan(notes.length); // title threads notify too

      // Second prompt: interrupt while the command runs.
      await session.submit('Run the slow job.');
      await waitForRunningCommand(session, 'slow.mjs');
      await session.interrupt();
      await session.waitForIdle();
      const rollout = readFileSync(session.transcriptPaths()[0] ?? '', 'utf8');
      expect(rollout).toContain('"type":"turn_aborted"');
      expect(session.hookInvocations()).toHaveLength(2); // no Stop hook for an interrupted turn
      expect(session.mainThreadNotifications()).toHaveLength(1); // and no notify
    });
    // The private tmux server is gone with the session.
    expect(socketName).toMatch(/^ac-e2e-/);
    expect(spawnSync('tmux', ['-L', socketName, 'list-sessions'], { env: tmuxEnv }).status).not.toBe(0);
  });
});
