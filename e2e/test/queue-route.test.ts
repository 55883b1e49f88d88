import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readSessionState } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { withRouteRun } from '../src/checkpoint/checkpoint-routes.ts';
import { DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { SKIP_REAL_CLIS } from '../src/harness/define-headless-agent-tests.ts';
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

describe.skipIf(SKIP_REAL_CLIS)('agent-checkpoint-tmux delivers through `codex queue` (real Codex TUI, default daemon)', () => {
  it('queues the checkpoint, Codex runs it as a queue turn, the model acts on it, and the queued turn gets no checkpoint', async () => {
    await withRouteRun('codex-tmux', { scenario: DAEMON_NOT_RESTARTED, tui: { daemon: true } }, async (run) => {
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
});
