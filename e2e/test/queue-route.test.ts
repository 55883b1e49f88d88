import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readSessionState } from '@agent-checkpoint/core';
import { CONFIRM_QUEUE_COMMAND, listQueuedItems, queueMessage, type CodexCommand, type QueueJob } from '@agent-checkpoint/delivery-tmux';
import { describe, expect, it } from 'vitest';
import { withRouteRun } from '../src/checkpoint/checkpoint-routes.ts';
import { DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { TMUX_BUNDLE } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { say, shell, tools, type Scenario } from '../src/mock/scenario.ts';
import { readJsonlFile } from '../src/harness/read-jsonl-file.ts';
import { waitFor } from '../src/harness/wait-for.ts';
import { CodexTuiSession } from '../src/run-codex-tui.ts';

/**
 * The Codex TUI notify route through `codex queue`, with the real Codex 0.169 TUI and its default
 * shared app-server daemon (as users run it), in a private tmux server.
 */

interface DebugLine {
  readonly pid: number;
  readonly route?: string;
  readonly level: string;
  readonly message: string;
  readonly [key: string]: unknown;
}

function debugLog(stateDir: string): DebugLine[] {
  return readJsonlFile<DebugLine>(path.join(stateDir, 'debug.log')).filter((l) => l.route === 'tmux');
}

const MARK = '[agent-checkpoint] e2e queued checkpoint: run `make restart`';

/** A TUI session with the default daemon and no notify program of ours (the test drives the queue). */
function startDaemonTui(script: Scenario): Promise<CodexTuiSession> {
  return CodexTuiSession.start({
    scenario: script,
    hook: { kind: 'none' },
    daemon: true,
    env: (workspace) => ({ AGENT_CHECKPOINT_STATE_DIR: path.join(workspace.root, 'state'), AGENT_CHECKPOINT_DEBUG: '1' }),
  });
}

const codexOf = (session: CodexTuiSession): CodexCommand => ({ argv: [...session.cli.argv], path: session.cli.argv.at(-1) ?? '', source: 'option' });
const stateDirOf = (session: CodexTuiSession): string => path.join(session.workspace.root, 'state');

/**
 * Queue `MARK` for the session's thread with `codex queue` (what the notify route does), then run
 * the bundled confirmer on it (`agent-checkpoint-tmux __confirm-queue`, as the notify route starts
 * it) with a short deadline, and wait for it to exit.
 */
async function queueAndConfirm(session: CodexTuiSession, threadId: string, deadlineMs: number, text = MARK): Promise<{ id: string; outcome: DebugLine }> {
  const rolloutPath = session.transcriptPaths()[0] ?? '';
  const fromOffset = readFileSync(rolloutPath).length;
  const queuedAt = Date.now();
  const queued = await queueMessage(codexOf(session), { threadId, text, env: session.env(), cwd: session.workspace.repo });
  if (!queued.ok) throw new Error(queued.reason);
  const job: QueueJob = {
    threadId,
    turnId: 'e2e',
    queuedSubmissionId: queued.queuedSubmissionId,
    rolloutPath,
    fromOffset,
    text,
    deadlineMs,
    codex: { ...codexOf(session), argv: [...codexOf(session).argv] },
    queuedAt,
  };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [TMUX_BUNDLE, CONFIRM_QUEUE_COMMAND], { env: session.env(), stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', () => resolve());
    child.stdin.end(JSON.stringify(job));
  });
  const outcome = debugLog(stateDirOf(session)).find((l) => l.queuedSubmissionId === queued.queuedSubmissionId && /^queue: (delivered|withdrawn|stale)$/.test(l.message));
  if (outcome === undefined) throw new Error(`no confirmer outcome in the debug log:\n${readFileSync(path.join(stateDirOf(session), 'debug.log'), 'utf8')}`);
  return { id: queued.queuedSubmissionId, outcome };
}

describe.skipIf(SKIP_REAL_CLIS)('agent-checkpoint-tmux delivers through `codex queue` (real Codex TUI, default daemon)', () => {
  it('queues the checkpoint, Codex runs it as a queue turn, the model acts on it, and the queued turn gets no checkpoint', async () => {
    await withRouteRun('codex-queue', { scenario: DAEMON_NOT_RESTARTED }, async (run) => {
      const session = run.session as CodexTuiSession;
      const [first, second] = run.stops;
      expect(run.stops).toHaveLength(2);
      expect(first?.payload?.['client']).toBe('codex-tui');
      expect(run.tmuxDecisions.map((d) => [d.turnId, d.outcome])).toEqual([
        [first?.payload?.['turn-id'], 'queued'],
        [second?.payload?.['turn-id'], 'skipped: this turn answered our own checkpoint'],
      ]);
      const expected = await run.expected();
      const message = expected.message ?? '';
      expect(message).toMatch(/^Required actions:\n1\. Run `make restart`$/m);
      // Byte-identical: what the model received is core's message, unchanged.
      expect(run.delivery?.checkpoint.raw).toBe(message);
      expect(run.delivery?.request.view?.lastUserText).toBe(message);
      expect(second?.payload?.['input-messages']).toEqual([DAEMON_NOT_RESTARTED.prompt, message]);
      // The rollout shows the checkpoint as a queue-triggered turn.
      const rollout = readFileSync(session.transcriptPaths()[0] ?? '', 'utf8');
      expect(rollout).toMatch(/"turn_trigger":"queue"/);
      // The model ran `make restart`; nothing ran past the script.
      expect(run.requests.filter((r) => !['step', 'title'].includes(r.answer)).map((r) => `${r.n} ${r.answer}`)).toEqual([]);
      expect(JSON.stringify(run.steps[6]?.body)).toContain('daemon restarted');
      // The detached confirmer found it in the rollout.
      const confirmed = await waitFor(() => debugLog(run.stateDir).find((l) => l.message === 'queue: delivered'), { timeoutMs: 30_000, what: 'the confirmer' });
      console.log(`queue latency: ${String(confirmed['latencyMs'])} ms`);
      const { state } = await readSessionState({ stateDir: run.stateDir, agent: 'codex', sessionId: run.sessionId });
      expect(state.turns.map((t) => [t.turnId, t.blocks])).toEqual([[first?.payload?.['turn-id'], 1]]);
    });
  });

  it('two TUIs on one daemon: notify carries the first TUI\'s pane, and the checkpoint still reaches only its own session', async () => {
    await withRouteRun('codex-queue', { scenario: DAEMON_NOT_RESTARTED, tui: { bystander: true } }, async (run) => {
      const session = run.session as CodexTuiSession;
      const bystander = session.bystanderPane ?? '';
      const ownPane = session.tmux.paneId();
      expect(bystander).not.toBe(ownPane);
      const [first] = run.stops;
      // The hazard: notify runs in the daemon the first TUI started, with that TUI's TMUX_PANE.
      expect(first?.env['TMUX_PANE']).toBe(bystander);
      expect(run.tmuxDecisions.map((d) => d.outcome)).toEqual(['queued', 'skipped: this turn answered our own checkpoint']);
      const message = (await run.expected()).message ?? '';
      expect(run.delivery?.request.view?.lastUserText).toBe(message);
      // Our session got it as a queue turn; the other TUI's pane shows nothing of it.
      expect(readFileSync(session.transcriptPaths()[0] ?? '', 'utf8')).toMatch(/"turn_trigger":"queue"/);
      const other = session.captureBystander();
      expect(other).not.toContain('agent-checkpoint');
      expect(other).toContain('? for shortcuts');
      expect(session.tmux.capture()).toContain('Ran make restart');
    });
  });

  it('two TUIs on one daemon and a Codex without `codex queue`: the tmux fallback refuses the first TUI\'s pane (it does not run this thread)', async () => {
    await withRouteRun('codex-tmux', { scenario: DAEMON_NOT_RESTARTED, tui: { daemon: true, bystander: true, codexWrapper: 'no-queue' } }, async (run) => {
      const session = run.session as CodexTuiSession;
      const bystander = session.bystanderPane ?? '';
      expect(run.stops[0]?.env['TMUX_PANE']).toBe(bystander);
      expect(run.tmuxDecisions.map((d) => d.outcome)).toEqual([
        `skipped: not typing: pane ${bystander}: its Codex does not have this thread's rollout open (another session, or a daemon writes it)`,
      ]);
      expect(session.captureBystander()).not.toContain('agent-checkpoint');
      expect(run.delivery).toBeUndefined();
    });
  });

  it('an Esc-paused queue: the item is withdrawn after the deadline and never runs, also after the next turn', async () => {
    const script: Scenario = { name: 'esc-paused-queue', steps: [tools(shell('sleep 60')), say('Second prompt answered.')] };
    await withCheckedSession(startDaemonTui(script), async (session) => {
      await session.submit('run the long command');
      await session.interrupt();
      const threadId = session.sessionId ?? '';
      expect(threadId).not.toBe('');
      // Paused by the Esc: the queued item is not delivered; the confirmer withdraws it.
      const { id, outcome } = await queueAndConfirm(session, threadId, 3000);
      expect(outcome.message).toBe('queue: withdrawn');
      // It was still queued when the confirmer removed it (not merely gone already).
      expect(debugLog(stateDirOf(session)).map((l) => l.message)).toContainEqual(expect.stringMatching(/^queue: not delivered within 3000 ms .*removed it from the queue$/));
      const listed = await listQueuedItems(codexOf(session), { threadId, env: session.env() });
      expect(listed).toEqual({ ok: true, ids: [] });
      expect(id).not.toBe('');
      // The user's next turn completes; the withdrawn checkpoint never becomes a turn.
      await session.submit('second prompt');
      await session.waitForTurnsCompleted(1, { timeoutMs: 60_000 });
      const rollout = readFileSync(session.transcriptPaths()[0] ?? '', 'utf8');
      expect(rollout).not.toContain('"turn_trigger":"queue"');
      expect(rollout).not.toContain('e2e queued checkpoint');
      expect(JSON.stringify(session.requests)).not.toContain('e2e queued checkpoint');
    });
  });

  it('a closed TUI: the item runs headless in the daemon or is withdrawn, and none is left queued', async () => {
    const script: Scenario = { name: 'closed-tui-queue', steps: [say('First prompt answered.'), say('Answered the queued checkpoint.')] };
    await withCheckedSession(startDaemonTui(script), async (session) => {
      await session.submit('first prompt');
      await session.waitForTurnsCompleted(1, { timeoutMs: 60_000 });
      const threadId = session.sessionId ?? '';
      // Close the TUI: its pane (and the private tmux server) goes; the daemon stays.
      session.tmux.kill();
      const { outcome } = await queueAndConfirm(session, threadId, 15_000);
      expect(['queue: delivered', 'queue: withdrawn']).toContain(outcome.message);
      console.log(`closed TUI: ${outcome.message}`);
      const listed = await listQueuedItems(codexOf(session), { threadId, env: session.env() });
      expect(listed).toEqual({ ok: true, ids: [] });
    });
  });

  it('measures queue delivery latency: `codex queue` start to our exact message in the rollout (median, p90)', async () => {
    const rounds = 8;
    const script: Scenario = { name: 'queue-latency', steps: [say('First prompt answered.')], fallback: say('Answered.') };
    await withCheckedSession(startDaemonTui(script), async (session) => {
      await session.submit('first prompt');
      await session.waitForTurnsCompleted(1, { timeoutMs: 60_000 });
      const threadId = session.sessionId ?? '';
      const latencies: number[] = [];
      for (let i = 0; i < rounds; i += 1) {
        const text = `${MARK} #${i}\nline two with $HOME, \`backticks\` and "quotes"`;
        const { outcome } = await queueAndConfirm(session, threadId, 15_000, text);
        expect(outcome.message).toBe('queue: delivered');
        latencies.push(Number(outcome['latencyMs']));
        await session.waitForTurnsCompleted(i + 2, { timeoutMs: 60_000 });
      }
      const sorted = [...latencies].sort((a, b) => a - b);
      const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
      console.log(`queue delivery latency over ${rounds} rounds (ms): median ${at(0.5)}, p90 ${at(0.9)}; all ${latencies.join(', ')}`);
      // Every message arrived verbatim, each as its own queue turn.
      const rollout = readFileSync(session.transcriptPaths()[0] ?? '', 'utf8');
      expect(rollout.match(/"turn_trigger":"queue"/g)).toHaveLength(rounds);
    });
  });
});
