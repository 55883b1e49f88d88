import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueJob } from './queue-confirmer.ts';
import { appendQueueOutcome, lastQueueProblem, MAX_NOTIFY_LOG_BYTES, NOTIFY_LOG } from './queue-outcome-log.ts';
import { runQueueConfirmerCommand } from './run-queue-confirmer-command.ts';

// The detached confirmer's outcome reaches `<stateDir>/notify.log` (its stderr goes nowhere).

let root: string;
let stateDir: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-tmux-confirmer-')));
  stateDir = join(root, 'state');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function job(rolloutPath: string, codexArgv: readonly string[]): QueueJob {
  return {
    threadId: 'thread-1',
    turnId: 'turn-1',
    queuedSubmissionId: 'queued-1',
    rolloutPath,
    fromOffset: 0,
    text: '[agent-checkpoint] a message that never shows up',
    deadlineMs: 100,
    codex: { argv: [...codexArgv], path: codexArgv[0] ?? '', source: 'option' },
    queuedAt: Date.now(),
  };
}

const run = (j: QueueJob, env: Record<string, string> = {}) =>
  runQueueConfirmerCommand(Readable.from([JSON.stringify(j)]), { PATH: process.env['PATH'] ?? '/usr/bin:/bin', AGENT_CHECKPOINT_STATE_DIR: stateDir, ...env });

describe('queue confirmer outcome log', () => {
  it('a queued item not delivered whose removal fails is logged as stale, without debug mode, and is what doctor reads', async () => {
    const rollout = join(root, 'rollout.jsonl');
    writeFileSync(rollout, '');
    // A Codex that cannot be run: the delete fails, so the item may still be queued.
    expect(await run(job(rollout, [join(root, 'no-such-codex')]))).toBe(0);
    const lines = readFileSync(join(stateDir, NOTIFY_LOG), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(entry).toMatchObject({ status: 'stale', threadId: 'thread-1', turnId: 'turn-1', queuedSubmissionId: 'queued-1', reason: expect.stringMatching(/removing it failed/) });
    expect(JSON.stringify(entry)).not.toContain('never shows up');
    expect(lastQueueProblem(stateDir)).toMatchObject({ status: 'stale', queuedSubmissionId: 'queued-1' });
  });

  it('a confirmed delivery is logged only in debug mode', async () => {
    // The queued turn as Codex 0.169 writes it (see __fixtures__/rollouts/queue-turn-0.169.0.jsonl).
    const text = job('', []).text;
    const rollout = join(root, 'rollout.jsonl');
    const userMessage = (turnId: string) =>
      `${JSON.stringify({ type: 'event_msg', payload: { type: 'task_started', turn_id: turnId, turn_attribution: { turn_trigger: 'queue' } } })}\n${JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } })}\n`;
    writeFileSync(rollout, userMessage('queued-turn'));
    expect(await run(job(rollout, [join(root, 'no-such-codex')]))).toBe(0);
    expect(() => readFileSync(join(stateDir, NOTIFY_LOG), 'utf8')).toThrow(/ENOENT/);
    expect(await run(job(rollout, [join(root, 'no-such-codex')]), { AGENT_CHECKPOINT_DEBUG: '1' })).toBe(0);
    const logged = readFileSync(join(stateDir, NOTIFY_LOG), 'utf8').trim().split('\n');
    expect(logged.map((l) => (JSON.parse(l) as { status: string }).status)).toEqual(['delivered']);
    expect(lastQueueProblem(stateDir)).toBeUndefined();
  });

  it('the log is rotated past its cap, and the last problem is still found', () => {
    const entry = { at: new Date().toISOString(), status: 'withdrawn' as const, threadId: 't', turnId: 'u', queuedSubmissionId: 'q', reason: 'x'.repeat(1000) };
    for (let i = 0; i < 200; i++) expect(appendQueueOutcome(stateDir, { ...entry, queuedSubmissionId: `q${i}` })).toBeUndefined();
    expect(readFileSync(join(stateDir, NOTIFY_LOG)).length).toBeLessThanOrEqual(MAX_NOTIFY_LOG_BYTES + 2048);
    expect(readFileSync(join(stateDir, `${NOTIFY_LOG}.1`)).length).toBeGreaterThan(MAX_NOTIFY_LOG_BYTES);
    expect(lastQueueProblem(stateDir)?.queuedSubmissionId).toBe('q199');
  });
});
