import { checkCommitGate, claimCommitGateBlock, commitGateFor } from '@agent-checkpoint/context-checkpoint';
import { loadConfig, readSessionState, type ResolvedConfig, type SessionStateLocation } from '@agent-checkpoint/core';
import type { HookEvent } from '../hook-event.ts';
import { pass, type HookRun, type HookRunContext } from '../run-hook.ts';
import { clearCommitGate, promptKeyOf } from './commit-gate-marker.ts';

/** Time kept back from the deadline for the claim and the output. */
const RESERVE_MS = 250;

/**
 * The commit gate (seed 001, opt-in `commitGate`) on a stop of a turn we already blocked: when gated
 * files are still uncommitted, block **once** more with "You have uncommitted code changes. Commit
 * your work before stopping." and the `Changed:` list; otherwise pass.
 *
 * The hard cap: the gate's block is claimed atomically in the session state (`claimCommitGateBlock`),
 * at most one per turn, so with `maxBlocksPerTurn: 1` a turn sees at most two blocks in all. Every
 * failure (config, git, state) passes.
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
  const turn = { turnId: turnKey ?? event.hint.turnId, promptKey: promptKeyOf(event) };
  const done = (detail: string): HookRun => {
    clearCommitGate(location);
    return pass('loop-guard', `${reason}; commit gate: ${detail}`);
  };

  const { state } = await readSessionState(location);
  const armed = commitGateFor(state, turn);
  if (armed.verdict === 'pass') return done(armed.reason);

  const resolved = config ?? (await loadConfig({ cwd: context.cwd, env: context.env })).config;
  if (resolved.commitGate === undefined || !resolved.enabled) return done('commitGate is off in the configuration');
  const budget = Math.max(0, context.deadlineAt - Date.now() - RESERVE_MS * 2);
  const check = await checkCommitGate({
    cwd: context.cwd,
    config: resolved,
    gate: resolved.commitGate,
    env: context.env,
    signal: AbortSignal.timeout(budget),
  });
  for (const note of check.diagnostics) context.log.debug(note);
  if (check.message === undefined) return done('no gated file is uncommitted');

  const { claim, diagnostics } = await claimCommitGateBlock({
    ...location,
    ...turn,
    now: context.now(),
    lockWaitMs: Math.max(0, Math.min(3000, context.deadlineAt - Date.now() - RESERVE_MS)),
  });
  for (const note of diagnostics) context.log.warn(note);
  clearCommitGate(location);
  if (claim.verdict === 'pass') return pass(claim.reason === 'state-unavailable' ? 'state-unavailable' : 'loop-guard', `${reason}; commit gate: ${claim.reason}`);
  return {
    verdict: { kind: 'block', reason: check.message },
    code: 'commit-gate',
    detail: `commit gate: ${check.files.length} uncommitted gated file(s) in turn ${claim.turnId} (${reason})`,
  };
}
