import type { LoadedConfig } from '../config/load-config.ts';
import type { CheckpointOutcome } from '../get-checkpoint-types.ts';
import type { ClaimCheckpointResult } from '../state/claim-checkpoint.ts';
import type { SessionState } from '../state/session-state.ts';
import type { LoopGuardDecision, LoopGuardPassReason } from '../state/loop-guard.ts';
import type { OffSwitchState } from '../state/off-switches.ts';
import type { TurnEndNotice } from './turn-end-notice.ts';

/**
 * Why a turn end lets the stop pass. Stable codes for routes to map onto their own (the hook's
 * `HookRunCode`, tmux's skip reasons):
 * - `switched-off`: an off switch (env, global, session) is on;
 * - `config-unusable`: a configuration path is a FIFO, socket or device (refused unread);
 * - `disabled`: `enabled: false`;
 * - `own-checkpoint-turn`: the turn answers our own checkpoint (routes without an escape hatch);
 * - `own-checkpoint-unrecognisable`: such a route with an empty `messages.prefix`;
 * - `loop-guard`: the loop guard passes (the turn had its checkpoints, or the last was too recent):
 *   before reading anything when the payload's turn id is final, else after the checkpoint;
 * - `route-refused`: the route's `admitTranscript` refused the transcript found (or its absence);
 * - `silent`: the checkpoint has nothing to say (`outcome.mode` says why).
 */
export type TurnEndPassReason =
  | 'switched-off'
  | 'config-unusable'
  | 'disabled'
  | 'own-checkpoint-turn'
  | 'own-checkpoint-unrecognisable'
  | 'loop-guard'
  | 'route-refused'
  | 'silent';

/** A turn end that passes. Fields beyond `reason` and `detail` are present when the pipeline got that far. */
export interface TurnEndPass {
  readonly kind: 'pass';
  readonly reason: TurnEndPassReason;
  readonly detail: string;
  /** The loop guard's own reason, for `loop-guard` (the hook's commit gate acts on `turn-limit-reached`). */
  readonly loopGuard?: { readonly reason: LoopGuardPassReason; readonly detail: string };
  readonly config?: LoadedConfig;
  readonly outcome?: CheckpointOutcome;
  /**
   * What the user should be told besides the verdict (a broken or untrusted config, an unreadable
   * transcript), in the order found. Never for the model: routes show them on the agent's
   * user-visible channel, once per session each (`claimNotices`).
   */
  readonly notices: readonly TurnEndNotice[];
  /** Milliseconds per step that ran (`config`, `checkpoint`), for the debug log. */
  readonly timings: Readonly<Record<string, number>>;
}

/** A turn end that should block with a checkpoint, before the claim. */
export interface TurnEndBlock {
  readonly kind: 'block';
  /** The text to deliver, byte-identical across routes. */
  readonly message: string;
  /** `outcome.mode`: `actionable`, `generic-fallback`, `context`… */
  readonly mode: string;
  /** One line: why this turn blocks (for logs). */
  readonly why: string;
  readonly outcome: CheckpointOutcome;
  readonly config: LoadedConfig;
  /** The transcript read (undefined: none, file-based instructions only). */
  readonly transcriptPath: string | undefined;
  /** The loop guard's turn key (`TurnEndEvent.turnKey` of the timeline). */
  readonly turnKey: string | undefined;
  /**
   * The loop guard's verdict on the state as read, unlocked: `pass` means the claim will pass too (state
   * only grows within a turn), so a route may skip slow delivery work; only the claim decides `allow`.
   * Undefined without a session id.
   */
  readonly loopGuard: LoopGuardDecision | undefined;
  /** As {@link TurnEndPass.notices}: for the user, next to the block, never inside the message. */
  readonly notices: readonly TurnEndNotice[];
  readonly timings: Readonly<Record<string, number>>;
}

/** Options of {@link ClaimableTurnEndBlock.claim}. */
export interface TurnEndClaimOptions {
  /** Longest wait for a concurrent run holding the session lock (default 3 s). */
  readonly lockWaitMs?: number;
  /**
   * The route's bookkeeping of the granted block, applied under the lock after the extensions'
   * (`ClaimCheckpointRequest.onGranted`): the hook route passes context-checkpoint's commit gate arming.
   */
  readonly onGranted?: (state: SessionState, now: Date, turnId: string) => SessionState;
}

/** A block a route can deliver once it has claimed it. */
export interface ClaimableTurnEndBlock extends TurnEndBlock {
  /**
   * The locked loop-guard claim (`claimCheckpoint`): call it right before delivering (the hook: at once;
   * tmux: right before typing or queuing). `allow` records the block and the message digest; any other
   * verdict means do not deliver (including `state-unavailable`, and no session id). Never throws.
   */
  claim(options?: TurnEndClaimOptions): Promise<ClaimCheckpointResult>;
}

/** Result of {@link runTurnEnd}. */
export type TurnEndDecision = TurnEndPass | ClaimableTurnEndBlock;

/**
 * Result of {@link previewTurnEnd} (`explain`): the decision as the routes would make it, computed
 * without claiming or writing anything, plus what stands between it and the agent right now. A
 * preview never stops at the off switch or the early loop guard: it reports them and still computes.
 */
export interface TurnEndPreview {
  readonly decision: TurnEndPass | TurnEndBlock;
  readonly offSwitch: OffSwitchState;
  /** The loop guard's unlocked verdict, when the decision blocks and there is a session id. */
  readonly loopGuard?: LoopGuardDecision;
  /** Names of the extensions not run because they may write (tests, handoffs). */
  readonly skippedExtensions: readonly string[];
}
