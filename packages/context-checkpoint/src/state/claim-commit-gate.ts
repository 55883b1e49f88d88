import {
  errorMessage,
  normalizeTurnId,
  recordBlock,
  refinesTurnId,
  type SessionState,
  type SessionStateLocation,
  updateSessionState,
} from '@agent-checkpoint/core';
import { commitGateStateOf, withCommitGateState } from './session-slots.ts';

/** How a stop identifies its turn to the commit gate. */
export interface CommitGateTurn {
  /** Claude `prompt_id`, Codex `turn_id`, or the key the block was claimed under. */
  readonly turnId?: string | undefined;
  /** Gemini: `prompt-<digest>` of the payload prompt. */
  readonly promptKey?: string | undefined;
}

/** Why the commit gate does not apply to a stop. */
export type CommitGatePassReason =
  /** No block of ours armed a gate in this session. */
  | 'not-armed'
  /** The armed gate belongs to another turn. */
  | 'other-turn'
  /** The gate already used its one extra block in this turn. */
  | 'already-blocked'
  /** The state could not be locked or written: pass (an unrecorded block could repeat). */
  | 'state-unavailable';

/** Whether a stop may use the commit gate's one extra block. */
export type CommitGateClaim =
  | { readonly verdict: 'allow'; readonly turnId: string }
  | { readonly verdict: 'pass'; readonly reason: CommitGatePassReason; readonly detail: string };

/**
 * Whether the gate armed in `state` applies to this stop. Pure. The gate is armed by the granted
 * block of a turn (`claimCheckpoint` with `onGranted: armCommitGate(…)`, commit-gate/commit-gate-marker.ts) and applies to later stops of that same
 * turn, at most once.
 */
export function commitGateFor(state: SessionState, turn: CommitGateTurn): CommitGateClaim {
  const gate = commitGateStateOf(state);
  if (gate === undefined) return { verdict: 'pass', reason: 'not-armed', detail: 'no commit gate armed in this session' };
  const sameTurn =
    (turn.turnId !== undefined && turn.turnId !== '' && (normalizeTurnId(turn.turnId) === gate.turnId || refinesTurnId(turn.turnId, gate.turnId))) ||
    (turn.promptKey !== undefined && gate.promptKey !== undefined && turn.promptKey === gate.promptKey);
  if (!sameTurn) return { verdict: 'pass', reason: 'other-turn', detail: `the commit gate was armed in turn ${gate.turnId}` };
  if (gate.blockedAt !== undefined) {
    return { verdict: 'pass', reason: 'already-blocked', detail: `the commit gate already blocked turn ${gate.turnId} at ${gate.blockedAt}` };
  }
  return { verdict: 'allow', turnId: gate.turnId };
}

/**
 * Take the commit gate's one extra block for this turn, atomically under the session lock (so of
 * several concurrent stops at most one gets it), and record it as a delivered checkpoint. Fails open:
 * a state that cannot be locked or written passes. Never throws.
 */
export async function claimCommitGateBlock(
  request: SessionStateLocation & CommitGateTurn & { readonly now?: Date; readonly lockWaitMs?: number },
): Promise<{ readonly claim: CommitGateClaim; readonly diagnostics: readonly string[] }> {
  const now = request.now ?? new Date();
  try {
    const result = await updateSessionState(
      request,
      (state) => {
        const claim = commitGateFor(state, request);
        const gate = commitGateStateOf(state);
        if (claim.verdict !== 'allow' || gate === undefined) return { state: undefined, value: claim };
        const blocked = recordBlock(state, claim.turnId, now);
        return { state: withCommitGateState(blocked, { ...gate, blockedAt: now.toISOString() }), value: claim };
      },
      request.lockWaitMs === undefined ? {} : { lockWaitMs: request.lockWaitMs },
    );
    return { claim: result.value, diagnostics: result.diagnostics };
  } catch (error) {
    const detail = errorMessage(error);
    return { claim: { verdict: 'pass', reason: 'state-unavailable', detail }, diagnostics: [detail] };
  }
}
