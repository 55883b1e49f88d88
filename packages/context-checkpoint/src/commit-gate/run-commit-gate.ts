import { loadConfig, type ResolvedConfig, type SessionStateLocation } from '@agent-checkpoint/core';
import { contextCheckpointSections } from '../load-turn-end-extensions.ts';
import { decideCommitGate } from '../opt-ins/decide-commit-gate.ts';
import { clearCommitGate, promptKeyOf } from './commit-gate-marker.ts';

/** A stop of a turn our block may have armed the gate in, as a route sees it. */
export interface CommitGateStop {
  readonly location: SessionStateLocation;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The key the loop guard counted the turn under, or the payload's turn id. */
  readonly turnId: string | undefined;
  /** The payload's prompt (Gemini's turn key: its stop payloads carry no turn id). */
  readonly prompt: string | undefined;
  /** The configuration when the route already loaded it; otherwise loaded only because the gate is armed. */
  readonly config?: ResolvedConfig;
  readonly deadlineAt: number;
  readonly now: Date;
  readonly log: { debug(note: string): void; warn(note: string): void };
}

/** What the gate decided on that stop: its one extra block, or a pass (`state-unavailable`: nothing could be recorded). */
export type CommitGateVerdict =
  | { readonly kind: 'block'; readonly message: string; readonly detail: string }
  | { readonly kind: 'pass'; readonly code: 'state-unavailable' | 'loop-guard'; readonly detail: string };

/**
 * The commit gate on a stop of a turn we already blocked (the route's escape hatch, or the loop guard
 * refusing a second checkpoint): block once more for uncommitted gated files (`decideCommitGate`), or
 * pass; either way the session's gate flag is cleared. `reason` says why the stop was not a checkpoint.
 */
export async function runCommitGateAtStop(stop: CommitGateStop, reason: string): Promise<CommitGateVerdict> {
  const decision = await decideCommitGate({
    location: stop.location,
    turn: { turnId: stop.turnId, promptKey: promptKeyOf(stop.prompt) },
    cwd: stop.cwd,
    env: stop.env,
    config: stop.config ?? (async () => (await loadConfig({ cwd: stop.cwd, env: stop.env, sections: contextCheckpointSections })).config),
    deadlineAt: stop.deadlineAt,
    now: stop.now,
    log: stop.log,
  });
  clearCommitGate(stop.location);
  if (decision.kind === 'pass') return { kind: 'pass', code: decision.stateUnavailable ? 'state-unavailable' : 'loop-guard', detail: `${reason}; commit gate: ${decision.detail}` };
  return { kind: 'block', message: decision.message, detail: `commit gate: ${decision.files.length} uncommitted gated file(s) in turn ${decision.turnId} (${reason})` };
}
