import { withPendingBlock, type PendingBlock } from './block-outcomes.ts';
import { markPendingBlock } from './pending-block-marker.ts';
import { clockSkewNote, decideLoopGuard, type LoopGuardConfig, type LoopGuardDecision } from './loop-guard.ts';
import { pruneStateDir } from './prune-state-dir.ts';
import { normalizeTurnId, recordBlock, recordDelivered, type SessionState } from './session-state.ts';
import { errorMessage, updateSessionState } from './session-state-store.ts';
import type { SessionStateLocation } from './state-files.ts';

/** Input of {@link claimCheckpoint}: a delivery route wants to deliver a checkpoint now. */
export interface ClaimCheckpointRequest extends SessionStateLocation {
  /** See {@link LoopGuardInput.turnId}. */
  readonly turnId: string | undefined;
  readonly stopHookActive: boolean;
  /** `TurnTimeline.checkpointsDelivered`. */
  readonly checkpointsDelivered?: number | undefined;
  /** See {@link LoopGuardInput.turnStartedAt}. */
  readonly turnStartedAt?: string | undefined;
  readonly config: LoopGuardConfig;
  /** Defaults to the current time. */
  readonly now?: Date;
  /** Longest wait for a concurrent hook holding the session lock (default 3 s). */
  readonly lockWaitMs?: number;
  /** `deliveredMessageDigest` of the message about to be delivered: recorded when the block is granted. */
  readonly messageDigest?: string;
  /**
   * A feature's bookkeeping of a granted block (`CheckpointOutcome.onClaimGranted`: the context package
   * promotes the pending context line; a route's `TurnEndClaimOptions.onGranted`: the context package
   * arms its commit gate). Pure; applied under the lock, only when the block is granted, with the
   * normalized turn id the block was recorded under.
   */
  readonly onGranted?: (state: SessionState, now: Date, turnId: string) => SessionState;
  /**
   * The block's findings and place in the turn (`pendingBlockOf`): recorded as the session's pending
   * block when granted, so the next stop can tell what became of it (see `classifyBlockOutcome`).
   */
  readonly block?: PendingBlock;
}

/** A loop guard decision, plus `state-unavailable` when the state could not be locked or written. */
export type CheckpointClaim =
  | LoopGuardDecision
  | { readonly verdict: 'pass'; readonly reason: 'state-unavailable'; readonly detail: string };

/** Result of {@link claimCheckpoint}. */
export interface ClaimCheckpointResult {
  readonly claim: CheckpointClaim;
  readonly diagnostics: readonly string[];
}

/**
 * The one call both delivery routes make right before delivering a checkpoint: decide with the loop
 * guard and, when allowed, record the block — atomically, under the session lock, so of any number of
 * concurrent hooks for the same turn exactly `maxBlocksPerTurn` get `allow`.
 *
 * Fails open: if the state cannot be locked or written, the claim is `pass` (`state-unavailable`),
 * because an unrecorded block could repeat forever. `stopHookActive` passes without touching disk.
 * Never throws.
 */
export async function claimCheckpoint(request: ClaimCheckpointRequest): Promise<ClaimCheckpointResult> {
  const now = request.now ?? new Date();
  const decide = (state: Parameters<typeof decideLoopGuard>[0]['state']): LoopGuardDecision =>
    decideLoopGuard({
      state,
      turnId: request.turnId,
      stopHookActive: request.stopHookActive,
      checkpointsDelivered: request.checkpointsDelivered,
      turnStartedAt: request.turnStartedAt,
      now,
      config: request.config,
    });
  if (request.stopHookActive || request.turnId === undefined) {
    return { claim: decide({ version: 1, agent: request.agent, sessionId: request.sessionId, turns: [] }), diagnostics: [] };
  }
  const turnId = request.turnId;
  let skew: string | undefined;
  try {
    const result = await updateSessionState(
      request,
      (state) => {
        skew = clockSkewNote(state, now);
        const decision = decide(state);
        const next = decision.verdict === 'allow' ? granted(state, turnId, now, request) : undefined;
        return { state: next && request.messageDigest !== undefined ? recordDelivered(next, request.messageDigest) : next, value: decision };
      },
      request.lockWaitMs === undefined ? {} : { lockWaitMs: request.lockWaitMs },
    );
    const diagnostics = [...result.diagnostics, ...(skew === undefined ? [] : [skew])];
    if (result.written && request.block !== undefined && result.value.verdict === 'allow') {
      const note = markPendingBlock(request);
      if (note !== undefined) diagnostics.push(note);
    }
    if (result.written) {
      // Housekeeping rides on the rare write path; at most once a day, never fatal.
      diagnostics.push(...(await pruneStateDir({ stateDir: request.stateDir, now })));
    }
    return { claim: result.value, diagnostics };
  } catch (error) {
    const detail = errorMessage(error);
    return { claim: { verdict: 'pass', reason: 'state-unavailable', detail }, diagnostics: [detail] };
  }
}

/** The state after a granted block: the turn's count, the pending block, the features' bookkeeping (`onGranted`). */
function granted(state: SessionState, turnId: string, now: Date, request: ClaimCheckpointRequest): SessionState {
  const recorded = recordBlock(state, turnId, now);
  const counted = request.block === undefined ? recorded : withPendingBlock(recorded, request.block, now);
  return request.onGranted ? request.onGranted(counted, now, normalizeTurnId(turnId)) : counted;
}
