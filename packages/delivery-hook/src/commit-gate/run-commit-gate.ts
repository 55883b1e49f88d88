import { decideCommitGate } from '@agent-checkpoint/context-checkpoint';
import { loadConfig, type ResolvedConfig, type SessionStateLocation } from '@agent-checkpoint/core';
import type { HookEvent } from '../hook-event.ts';
import { pass, type HookRun, type HookRunContext } from '../hook-run.ts';
import { clearCommitGate, promptKeyOf } from './commit-gate-marker.ts';
import { contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';

/**
 * The hook route's glue of the commit gate (the decision is the context package's
 * `decideCommitGate`): on a stop of a turn we already blocked, block once more for uncommitted gated
 * files, or pass; either way the session's gate marker is cleared.
 *
 * `config` is given when the caller already loaded it (the Gemini path through the checkpoint phase);
 * the escape-hatch path loads it here, only because the session's gate flag exists. `turnKey` is the
 * key the loop guard counted the turn under, when known (it may refine the payload's id, see
 * `turnKeyOf`).
 */
export async function runCommitGate(
  event: HookEvent,
  context: HookRunContext & { readonly cwd: string; readonly sessionId: string },
  reason: string,
  config?: ResolvedConfig,
  turnKey?: string,
): Promise<HookRun> {
  const location: SessionStateLocation = { stateDir: context.stateDir, agent: context.agent, sessionId: context.sessionId };
  const decision = await decideCommitGate({
    location,
    turn: { turnId: turnKey ?? event.hint.turnId, promptKey: promptKeyOf(event) },
    cwd: context.cwd,
    env: context.env,
    config: config ?? (async () => (await loadConfig({ cwd: context.cwd, env: context.env, sections: contextCheckpointSections })).config),
    deadlineAt: context.deadlineAt,
    now: context.now(),
    log: context.log,
  });
  clearCommitGate(location);
  if (decision.kind === 'pass') return pass(decision.stateUnavailable ? 'state-unavailable' : 'loop-guard', `${reason}; commit gate: ${decision.detail}`);
  return {
    verdict: { kind: 'block', reason: decision.message },
    code: 'commit-gate',
    detail: `commit gate: ${decision.files.length} uncommitted gated file(s) in turn ${decision.turnId} (${reason})`,
  };
}
