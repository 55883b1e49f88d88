import { runCommitGateAtStop } from '@agent-checkpoint/context-checkpoint';
import type { ResolvedConfig } from '@agent-checkpoint/core';
import type { HookEvent } from '../hook-event.ts';
import { pass, type HookRun, type HookRunContext } from '../hook-run.ts';

/**
 * The hook route's glue of the commit gate (the gate itself is context-checkpoint's
 * `runCommitGateAtStop`): the payload's turn and prompt in, the gate's verdict out as the hook's run.
 * `config` is given when the caller already loaded it; `turnKey` is the key the loop guard counted
 * the turn under, when known (it may refine the payload's id, see `turnKeyOf`).
 */
export async function runCommitGate(
  event: HookEvent,
  context: HookRunContext & { readonly cwd: string; readonly sessionId: string },
  reason: string,
  config?: ResolvedConfig,
  turnKey?: string,
): Promise<HookRun> {
  const verdict = await runCommitGateAtStop(
    {
      location: { stateDir: context.stateDir, agent: context.agent, sessionId: context.sessionId },
      cwd: context.cwd,
      env: context.env,
      turnId: turnKey ?? event.hint.turnId,
      prompt: event.hint.prompt,
      ...(config !== undefined ? { config } : {}),
      deadlineAt: context.deadlineAt,
      now: context.now(),
      log: context.log,
    },
    reason,
  );
  switch (verdict.kind) {
    case 'pass':
      return pass(verdict.code, verdict.detail);
    case 'block':
      return { verdict: { kind: 'block', reason: verdict.message }, code: 'commit-gate', detail: verdict.detail };
  }
}
