import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSessionState } from '@agent-checkpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, createCodexWorld, RECORDED, type CodexWorld } from '../../src/__fixtures__/codex-world.ts';
import { startFakeCodex, startTestTmux } from '../../src/__fixtures__/tmux-test-server.ts';
import { asSubmitted, buildHookBundle, expectedForTurn1, expectNotifyContract, runNotifyBounded, waitFor } from './support.ts';

// Both routes installed for one Codex session (docs/reliability.md): the Codex `Stop` hook and the
// tmux `notify` program fire for the same turn at the same moment — twice each. Across both routes
// exactly one checkpoint is delivered (a hook block or a typed message), byte-identical to
// getCheckpoint, and the shared state records exactly one block for the turn.

let work: string;
let notifyBundle: string;
let hookBundle: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ac-tmux-rel-mixed-'));
  notifyBundle = await buildBundle(work);
  hookBundle = buildHookBundle(join(work, 'agent-checkpoint-hook.cjs'));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The Codex `Stop` hook payload of turn 1 (codex-cli 0.169 shape). */
function stopPayload(world: CodexWorld, rollout: string): string {
  return JSON.stringify({
    session_id: RECORDED.threadId,
    turn_id: RECORDED.turn1,
    transcript_path: rollout,
    cwd: world.repo,
    hook_event_name: 'Stop',
    model: 'gpt-5.5',
    permission_mode: 'bypassPermissions',
    stop_hook_active: false,
    last_assistant_message: 'Fixed calc.add and added NOTES.md.',
  });
}

/** Run the hook bundle as Codex does; killed at 60 s. Resolves with exit code and stdout. */
function runHook(stdin: string, env: Readonly<Record<string, string>>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [hookBundle, 'codex'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.on('error', () => undefined);
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (error) => {
      clearTimeout(killer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

describe('hook route and tmux route on the same turn', () => {
  // Three interleavings: all four processes spawned in the same tick; the hooks spawned when the
  // notify programs are already working on the turn; the hooks spawned when a message is being typed.
  const rounds = [
    { name: 'all at once', hooksAfter: undefined },
    { name: 'hooks join while the notify programs read the turn', hooksAfter: 'turn complete' },
    { name: 'hooks join while the message is being typed', hooksAfter: 'paste' },
  ] as const;
  for (const round of rounds) {
    it(`${round.name}: two Stop hooks and two notify programs deliver exactly one checkpoint`, { timeout: 120_000 }, async () => {
      const world = createCodexWorld();
      const server = await startTestTmux();
      try {
        const fake = await startFakeCodex(server, ['--busy-ms', '100', '--hold-open', world.rolloutPath]);
        const rollout = world.writeRollout(RECORDED.turn1End, '[agent-checkpoint] ');
        const expected = await expectedForTurn1(world, rollout);
        expect(expected.decision, expected.diagnostics.join('; ')).toBe('message');

        const notifyEnv = { ...world.env, ...fake.env, AGENT_CHECKPOINT_DEBUG: '1' };
        const payload = world.payload(RECORDED.turn1, [RECORDED.prompt]);
        const notifyRuns = [runNotifyBounded(notifyBundle, [payload], notifyEnv), runNotifyBounded(notifyBundle, [payload], notifyEnv)];
        let notifiesEnded = false;
        void Promise.all(notifyRuns).then(() => (notifiesEnded = true));
        const log = join(world.stateDir, 'debug.log');
        if (round.hooksAfter === 'turn complete') {
          await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('turn complete'), 'a notify program to start on the turn', 20_000);
        } else if (round.hooksAfter === 'paste') {
          // If no paste ever comes, the hooks deliver; the assertions below still hold.
          await waitFor(() => fake.events().some((e) => e.type === 'paste') || notifiesEnded, 'a paste or the end of the notify programs', 20_000);
        }
        const hookRuns = [runHook(stopPayload(world, rollout), world.env, world.repo), runHook(stopPayload(world, rollout), world.env, world.repo)];

        const blocks: string[] = [];
        for (const run of await Promise.all(hookRuns)) {
          expect(run.code, run.stderr).toBe(0);
          if (run.stdout !== '') blocks.push((JSON.parse(run.stdout) as { decision: string; reason: string }).reason);
        }
        for (const run of await Promise.all(notifyRuns)) expectNotifyContract(run);
        const typed = fake.submissions();

        expect(blocks.length + typed.length, `hook blocks: ${blocks.length}, typed: ${typed.length}`).toBe(1);
        if (round.hooksAfter === 'paste' && fake.events().some((e) => e.type === 'paste')) expect(blocks).toEqual([]);
        if (blocks.length === 1) expect(blocks[0]).toBe(expected.message);
        else expect(typed[0]).toBe(asSubmitted(expected.message));
        const state = await readSessionState({ stateDir: world.stateDir, agent: 'codex', sessionId: RECORDED.threadId });
        expect(state.state.turns.map((t) => [t.turnId, t.blocks])).toEqual([[RECORDED.turn1, 1]]);
      } finally {
        await server.dispose();
        world.remove();
      }
    });
  }
});
