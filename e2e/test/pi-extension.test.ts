import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_PREFIX, RESTART_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import { ALL_DONE, DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { assertBundlesBuilt, HOOK_BUNDLE } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { ownInstallSession, runOurBin } from '../src/harness/own-install.ts';
import { PI_EXTENSION_SOURCE, PiSession } from '../src/run-pi.ts';

/**
 * The Pi route end to end with the real pinned Pi (0.73.1) against the mock: a session starts with no
 * extension, `agent-checkpoint-hook install --agent pi` writes ours (exactly what a user runs), and
 * Pi then runs our real hook at the end of the turn. A turn that needs a checkpoint gets exactly one
 * follow-up, which the model acts on; a finished turn passes silently. Uninstall removes both files.
 */

/** The user messages of the session's transcript, in order. */
function userTexts(session: PiSession): string[] {
  return session.transcriptPaths().flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        const entry = JSON.parse(line) as { type?: string; message?: { role?: string; content?: unknown } };
        if (entry.type !== 'message' || entry.message?.role !== 'user') return [];
        const content = entry.message.content;
        if (typeof content === 'string') return [content];
        return Array.isArray(content) ? [content.map((b: { text?: unknown }) => (typeof b.text === 'string' ? b.text : '')).join('\n')] : [];
      }),
  );
}

describe.skipIf(SKIP_REAL_CLIS)('Pi: install writes our extension, the real Pi runs our hook', () => {
  assertBundlesBuilt();

  it('install → the turn gets exactly one follow-up, acted on → install again changes nothing → uninstall removes the extension', async () => {
    await withCheckedSession(PiSession.start(ownInstallSession(DAEMON_NOT_RESTARTED.script)), async (session) => {
      const dir = path.join(session.workspace.home, '.pi', 'agent', 'extensions', 'agent-checkpoint');
      const installed = runOurBin(HOOK_BUNDLE, ['install', '--agent', 'pi'], session);
      expect(installed.code, installed.stderr).toBe(0);
      expect(readFileSync(path.join(dir, 'index.js')).equals(readFileSync(PI_EXTENSION_SOURCE)), 'the shipped extension, copied').toBe(true);
      const hookJson = readFileSync(path.join(dir, 'hook.json'));
      expect(hookJson.toString('utf8')).toContain(`${realpathSync(HOOK_BUNDLE)} pi`);
      expect(runOurBin(HOOK_BUNDLE, ['install', '--agent', 'pi'], session).code).toBe(0);
      expect(readFileSync(path.join(dir, 'hook.json')).equals(hookJson), 'a second install must not change hook.json').toBe(true);

      const run = await session.prompt(DAEMON_NOT_RESTARTED.prompt);
      expect(run.timedOut, run.stderr).toBe(false);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr, 'no warning from the extension').not.toContain('agent-checkpoint:');
      const checkpoints = userTexts(session).filter((text) => text.startsWith(CHECKPOINT_PREFIX));
      expect(checkpoints, 'exactly one follow-up').toHaveLength(1);
      expect(checkpoints[0]).toContain(`Run \`${RESTART_COMMAND}\``);
      expect(session.requests.filter((r) => r.answer === 'fallback')).toEqual([]);
      expect(session.requests.some((r) => r.answer === 'step' && JSON.stringify(r.reply ?? '').includes(RESTART_COMMAND)), 'the model ran the restart').toBe(true);
      expect(run.stdout.trim()).toBe(DAEMON_NOT_RESTARTED.finalText);

      const removed = runOurBin(HOOK_BUNDLE, ['uninstall', '--agent', 'pi'], session);
      expect(removed.code, removed.stderr).toBe(0);
      expect(existsSync(path.join(dir, 'hook.json')), 'install created hook.json: uninstall deletes it').toBe(false);
      expect(existsSync(path.join(dir, 'index.js')), 'and the extension beside it').toBe(false);
    });
  });

  it('a finished turn passes silently: no follow-up, no warning', async () => {
    await withCheckedSession(PiSession.start(ownInstallSession(ALL_DONE.script)), async (session) => {
      expect(runOurBin(HOOK_BUNDLE, ['install', '--agent', 'pi'], session).code).toBe(0);
      const run = await session.prompt(ALL_DONE.prompt);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).not.toContain('agent-checkpoint:');
      expect(userTexts(session).filter((text) => text.startsWith(CHECKPOINT_PREFIX))).toEqual([]);
      expect(session.requests.filter((r) => r.answer === 'fallback')).toEqual([]);
      expect(run.stdout.trim()).toBe('Fixed, tested and restarted.');
    });
  });
});
