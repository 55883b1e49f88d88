import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { getCheckpoint, type CheckpointOutcome } from '@agent-checkpoint/core';
import { createCodexTranscriptReader } from '@agent-checkpoint/transcript-codex';
import { expect } from 'vitest';
import { RECORDED, type CodexWorld, type NotifyRun } from '../../src/__fixtures__/codex-world.ts';

/**
 * Shared assertions of the tmux-route reliability suite (docs/reliability.md): whatever happens, the
 * notify program exits 0 in bounded time, writes only one-line prefixed diagnostics — no stack
 * trace — and types at most the message getCheckpoint gives for the same inputs.
 */
export function expectNotifyContract(run: NotifyRun, maxMs = 35_000): void {
  expect(run.code, run.stderr).toBe(0);
  expect(run.endedAt - run.startedAt).toBeLessThan(maxMs);
  for (const line of run.stderr.split('\n').filter((l) => l !== '')) {
    expect(line, `stderr:\n${run.stderr}`).toMatch(/^agent-checkpoint-tmux: /);
  }
  expect(run.stderr).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
  expect(run.stderr).not.toMatch(/internal error/);
  expect(run.outcome.kind, `no outcome report: ${run.stdout}`).not.toBe('no-report');
}

/** getCheckpoint for turn 1 with exactly the inputs the notify route uses. */
export function expectedForTurn1(
  world: CodexWorld,
  transcriptPath: string,
  env: Readonly<Record<string, string>> = world.env,
  cwd: string = world.repo,
): Promise<CheckpointOutcome> {
  return getCheckpoint({
    agent: 'codex',
    cwd,
    transcript: {
      reader: createCodexTranscriptReader(),
      path: transcriptPath,
      hint: { turnId: RECORDED.turn1, prompt: RECORDED.prompt, lastAssistantMessage: 'Fixed calc.add and added NOTES.md.' },
    },
    sessionId: RECORDED.threadId,
    env,
  });
}

/** The text as the composer shows it after submission (Codex trims trailing whitespace). */
export function asSubmitted(message: string | undefined): string | undefined {
  return message?.replace(/\s+$/, '');
}

/** Where the world's rollout for the recorded thread lives. */
export function rolloutPath(world: CodexWorld): string {
  return join(world.codexHome, 'sessions', '2026', '11', '22', `rollout-2026-11-22T02-13-06-${RECORDED.threadId}.jsonl`);
}

/**
 * Build the hook bundle (`agent-checkpoint-hook`) into `outfile` from the delivery-hook sources, so
 * the two routes can be run side by side on one turn.
 */
export function buildHookBundle(outfile: string): string {
  const builder = join(import.meta.dirname, '..', '..', '..', 'delivery-hook', 'build-hook.mjs');
  execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(builder)}); await m.buildHook(${JSON.stringify(outfile)});`], {
    stdio: 'pipe',
  });
  return outfile;
}

/** Wait for a condition with a deadline (never a bare sleep). */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Run the bundled notify program as Codex does (`node <bundle> [args…] <payload>`), like the
 * fixtures' `runNotifyBundle`, but killed at `killAfterMs` (then `code` is null and the contract
 * fails): a wedged notify must fail the test, never outlive it.
 */
export function runNotifyBounded(bundle: string, args: readonly string[], env: Readonly<Record<string, string>>, killAfterMs = 40_000): Promise<NotifyRun> {
  const startedAt = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], { env: { ...env, AGENT_CHECKPOINT_TMUX_REPORT: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', (error) => {
      clearTimeout(killer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      let outcome: NotifyRun['outcome'] = { kind: 'no-report' };
      try {
        outcome = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as NotifyRun['outcome'];
      } catch {
        // The contract assertion reports the missing outcome with stdout.
      }
      resolve({ code, stdout, stderr, startedAt, endedAt: Date.now(), outcome });
    });
  });
}
