import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_PREFIX, RESTART_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import type { CheckpointRoute } from '../src/checkpoint/checkpoint-routes.ts';
import { DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { findDeliveredCheckpoint } from '../src/checkpoint/delivered-checkpoint.ts';
import { assertBundlesBuilt, HOOK_BUNDLE, TMUX_BUNDLE } from '../src/harness/agent-checkpoint-bins.ts';
import type { AgentSession, SessionOptions } from '../src/harness/agent-session.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { ownInstallSession, runOurBin } from '../src/harness/own-install.ts';
import { ClaudeSession } from '../src/run-claude.ts';
import { CodexSession } from '../src/run-codex.ts';
import { GeminiSession } from '../src/run-gemini.ts';

/**
 * The install story end to end: a session starts with **no** hook, our own `install` command
 * registers it in the temp HOME (exactly what a user runs), and the real CLI then runs it — the
 * checkpoint blocks the turn and the model acts on it. Re-running install changes nothing; uninstall
 * restores the settings file byte for byte. For Codex's notify, `agent-checkpoint-tmux install`
 * chains the notify program the CLI already had, which keeps running on every turn.
 */

type HeadlessSession = AgentSession & { prompt(text: string): Promise<{ exitCode: number | null; timedOut: boolean; stderr: string }> };

interface AgentCase {
  readonly agent: AgentId;
  readonly route: CheckpointRoute;
  start(options: SessionOptions): Promise<HeadlessSession>;
  /** The user-scope settings file `install` edits, inside the session's HOME. */
  settings(session: AgentSession): string;
}

const CASES: readonly AgentCase[] = [
  { agent: 'claude', route: 'claude-hook', start: (o) => ClaudeSession.start(o), settings: (s) => path.join(s.workspace.home, '.claude', 'settings.json') },
  // The runner's own user settings (API-key auth, no telemetry…) are in this file: install must keep them.
  { agent: 'gemini', route: 'gemini-hook', start: (o) => GeminiSession.start(o), settings: (s) => path.join(s.workspace.home, '.gemini', 'settings.json') },
  // CODEX_HOME = $HOME/.codex. The runner starts `codex exec` with --dangerously-bypass-hook-trust
  // (the trust step needs the TUI; doctor reports it, see delivery-hook's doctor tests).
  { agent: 'codex', route: 'codex-hook', start: (o) => CodexSession.start(o), settings: (s) => path.join(s.workspace.home, '.codex', 'hooks.json') },
];

const readOptional = (file: string): Buffer | undefined => (existsSync(file) ? readFileSync(file) : undefined);

describe.skipIf(SKIP_REAL_CLIS)('install, then the real CLI runs our hook', () => {
  assertBundlesBuilt();

  describe.each(CASES)('$agent', (c) => {
    it('install (user scope) → the turn is checkpointed → install again changes nothing → uninstall restores the file', async () => {
      await withCheckedSession(c.start(ownInstallSession(DAEMON_NOT_RESTARTED.script)), async (session) => {
        const settings = c.settings(session);
        const original = readOptional(settings);

        const installed = runOurBin(HOOK_BUNDLE, ['install', '--agent', c.agent], session);
        expect(installed.code, installed.stderr).toBe(0);
        const afterInstall = readFileSync(settings);
        expect(afterInstall.toString('utf8')).toContain(`${realpathSync(HOOK_BUNDLE)} ${c.agent}`);
        if (c.agent === 'codex') expect(installed.stdout).toContain('Trust step (required)');
        if (c.agent === 'gemini') {
          // The runner's settings survived, key by key.
          expect(JSON.parse(afterInstall.toString('utf8'))).toMatchObject(JSON.parse(original!.toString('utf8')) as object);
        }
        expect(runOurBin(HOOK_BUNDLE, ['install', '--agent', c.agent], session).code).toBe(0);
        expect(readFileSync(settings).equals(afterInstall), 'a second install must not change the file').toBe(true);

        const doctor = JSON.parse(runOurBin(HOOK_BUNDLE, ['doctor', '--json'], session).stdout) as { findings: { id: string; status: string }[] };
        const event = c.agent === 'gemini' ? 'AfterAgent' : 'Stop';
        expect(doctor.findings.find((f) => f.id === `${c.agent}.hook.user.${event}`)?.status).toBe('ok');

        const run = await session.prompt(DAEMON_NOT_RESTARTED.prompt);
        expect(run.timedOut, run.stderr).toBe(false);
        expect(run.exitCode, run.stderr).toBe(0);
        // The hook the installer registered blocked the stop: the next model request carries our checkpoint,
        // and the model answered it with the restart the checkpoint asked for.
        const deliveries = session.requests.flatMap((r) => {
          const found = r.answer === 'step' ? findDeliveredCheckpoint(c.route, r.body) : undefined;
          return found === undefined ? [] : [found.text];
        });
        expect(deliveries.length, 'requests that carried a checkpoint').toBeGreaterThan(0);
        expect(deliveries[0]!.startsWith(CHECKPOINT_PREFIX)).toBe(true);
        expect(deliveries[0]).toContain(`Run \`${RESTART_COMMAND}\``);
        expect(deliveries[0]).toContain(path.join(session.workspace.root, 'state', 'switches'));
        expect(session.requests.filter((r) => r.answer === 'fallback')).toEqual([]);
        expect(session.requests.some((r) => r.answer === 'step' && JSON.stringify(r.reply ?? '').includes(RESTART_COMMAND))).toBe(true);

        const removed = runOurBin(HOOK_BUNDLE, ['uninstall', '--agent', c.agent], session);
        expect(removed.code, removed.stderr).toBe(0);
        const after = readOptional(settings);
        if (original === undefined) expect(after, 'install created the file: uninstall deletes it').toBeUndefined();
        else expect(after?.equals(original), 'uninstall restores the original bytes').toBe(true);
      });
    });
  });

  it('claude, project scope: <repo>/.claude/settings.json is created, the turn is checkpointed, uninstall deletes it', async () => {
    await withCheckedSession(ClaudeSession.start(ownInstallSession(DAEMON_NOT_RESTARTED.script)), async (session) => {
      const settings = path.join(session.workspace.repo, '.claude', 'settings.json');
      expect(existsSync(settings)).toBe(false);
      const installed = runOurBin(HOOK_BUNDLE, ['install', '--agent', 'claude', '--scope', 'project', '--cwd', session.workspace.repo], session);
      expect(installed.code, installed.stderr).toBe(0);
      expect(existsSync(path.join(session.workspace.home, '.claude', 'settings.json'))).toBe(false);

      const run = await session.prompt(DAEMON_NOT_RESTARTED.prompt);
      expect(run.exitCode, run.stderr).toBe(0);
      const delivered = session.requests.map((r) => (r.answer === 'step' ? findDeliveredCheckpoint('claude-hook', r.body) : undefined)).find((d) => d !== undefined);
      expect(delivered?.text).toContain(`Run \`${RESTART_COMMAND}\``);
      // The settings file is untracked in the repository but not part of the turn: it is not in "Changed:".
      expect(delivered?.text).not.toContain('settings.json');

      expect(runOurBin(HOOK_BUNDLE, ['uninstall', '--agent', 'claude', '--scope', 'project', '--cwd', session.workspace.repo], session).code).toBe(0);
      expect(existsSync(path.join(session.workspace.repo, '.claude'))).toBe(false);
    });
  });

  it('codex: agent-checkpoint-tmux install chains the notify program Codex had; it still runs; uninstall restores config.toml', async () => {
    await withCheckedSession(CodexSession.start(ownInstallSession(DAEMON_NOT_RESTARTED.script)), async (session) => {
      const config = path.join(session.workspace.home, '.codex', 'config.toml');
      const original = readFileSync(config);
      const probeNotify = /^notify = (.*)$/m.exec(original.toString('utf8'))?.[1];
      expect(probeNotify, 'the runner records notify through its probe').toBeDefined();

      const installed = runOurBin(TMUX_BUNDLE, ['install'], session);
      expect(installed.code, installed.stderr).toBe(0);
      const text = readFileSync(config, 'utf8');
      const notify = JSON.parse(/^notify = (.*)$/m.exec(text)?.[1] ?? 'null') as string[];
      expect(notify.slice(0, 3)).toEqual([realpathSync(process.execPath), realpathSync(TMUX_BUNDLE), '--']);
      expect(notify.slice(3)).toEqual(JSON.parse(probeNotify!) as string[]);
      // Nothing else in the file changed.
      expect(text.replace(/^notify = .*$/m, '')).toBe(original.toString('utf8').replace(/^notify = .*$/m, ''));

      const run = await session.prompt(DAEMON_NOT_RESTARTED.prompt);
      expect(run.exitCode, run.stderr).toBe(0);
      // Codex ran our notify program, which started the chained probe with the same payload.
      await session.waitForNotifications(1, 20_000);
      expect(session.mainThreadNotifications()[0]?.payload?.['type']).toBe('agent-turn-complete');

      expect(runOurBin(TMUX_BUNDLE, ['uninstall'], session).code).toBe(0);
      expect(readFileSync(config).equals(original), 'uninstall restores config.toml byte for byte').toBe(true);
    });
  });
});
