import type { ResolvedConfig } from '../config/config-schema.ts';
import { findTurn, type SessionState } from './session-state.ts';

/** Loop guard settings (`loopGuard` in the config file). */
export type LoopGuardConfig = ResolvedConfig['loopGuard'];

/** Defaults used when a route has no resolved config at hand (defined once, in setting-defaults.ts). */
export { DEFAULT_LOOP_GUARD } from '../config/setting-defaults.ts';

/**
 * How far in the future a recorded checkpoint time may lie and still count (as "just now"): two hooks
 * of one session take their clock readings before the lock, so the other's record can be a little
 * ahead. Anything later is clock skew (a clock set back, a state file from another machine) and is
 * treated as invalid, or it would hold the guard shut until the clock catches up.
 */
export const FUTURE_TOLERANCE_MS = 5_000;
/** Everything {@link decideLoopGuard} looks at. */
export interface LoopGuardInput {
  readonly state: SessionState;
  /**
   * Identity of the turn that just ended (Claude `prompt_id`, Codex `turn_id`, Gemini digest).
   * Undefined when nothing identifies the turn: the guard then passes, because it could not count.
   */
  readonly turnId: string | undefined;
  /**
   * The agent's re-entry flag. Claude and Codex keep it true for every stop after a block; Gemini
   * resets it after a tool call, which is why the per-turn count exists.
   */
  readonly stopHookActive: boolean;
  /**
   * Our checkpoints the transcript shows in this turn (`TurnTimeline.checkpointsDelivered`). Counts
   * like the state file, so a lost state dir or the other route's delivery still limits blocks.
   */
  readonly checkpointsDelivered?: number | undefined;
  /**
   * When the turn started (`TurnTimeline.startedAt`, the prompt's time in the transcript). Lets the guard
   * recognise the late stop of a turn the bounded state no longer remembers; undefined: it cannot.
   */
  readonly turnStartedAt?: string | undefined;
  readonly now: Date;
  readonly config: LoopGuardConfig;
}

/** Why the guard let the stop pass. Stable codes, shown in debug logs and `status`. */
export type LoopGuardPassReason =
  /** The agent says this stop follows one of our blocks: always pass (escape hatch). */
  | 'stop-hook-active'
  /** Nothing identifies the turn, so blocks could not be counted. */
  | 'no-turn-identity'
  /** This turn already got `maxBlocksPerTurn` checkpoints (state file or transcript). */
  | 'turn-limit-reached'
  /** This turn already got a checkpoint less than `minTurnSeconds` ago (only with `maxBlocksPerTurn` above 1). */
  | 'too-soon-after-checkpoint'
  /**
   * The state no longer remembers this turn, and it started at or before the newest checkpoint of a
   * turn the state forgot (`forgottenThrough`): a late stop of an old turn, treated as already checkpointed.
   */
  | 'turn-forgotten';

/** What the loop guard decided. */
export type LoopGuardDecision =
  | {
      readonly verdict: 'allow';
      readonly turnId: string;
      /** Blocks already delivered in this turn before this one. */
      readonly blocksSoFar: number;
    }
  | { readonly verdict: 'pass'; readonly reason: LoopGuardPassReason; readonly detail: string };

/**
 * Decide whether a checkpoint may block this stop. Pure: no I/O, no clock.
 *
 * Rules, in order:
 * 1. `stopHookActive` → pass, whatever git or the transcript say (the agent's escape hatch);
 * 2. no turn identity → pass;
 * 2a. a turn the bounded state does not remember, started at or before the newest checkpoint of a turn
 *    it forgot → pass (`turn-forgotten`): turns of a session are sequential, so this is the late stop
 *    of an old turn, and bounded memory must fail towards "already checkpointed";
 * 3. at most `maxBlocksPerTurn` blocks per real user turn (0 never blocks), counting the larger of the
 *    state file's count and the transcript's `checkpointsDelivered`;
 * 4. a turn that already got a checkpoint gets another only `minTurnSeconds` (0 disables) after it
 *    (the original's "reactivation" interval). It never applies to a turn's first checkpoint: a quick
 *    "edited the daemon, said done" turn is exactly what the checkpoint exists for. The time is the
 *    state file's record of this turn; one in the future (clock skew, see {@link FUTURE_TOLERANCE_MS})
 *    is ignored, and {@link clockSkewNote} says so.
 */
export function decideLoopGuard(input: LoopGuardInput): LoopGuardDecision {
  const { config } = input;
  if (input.stopHookActive) {
    return { verdict: 'pass', reason: 'stop-hook-active', detail: 'stop_hook_active is true' };
  }
  if (input.turnId === undefined || input.turnId === '') {
    return { verdict: 'pass', reason: 'no-turn-identity', detail: 'no turn id in the payload or transcript' };
  }
  const turn = findTurn(input.state, input.turnId);
  if (turn === undefined && startedBeforeForgotten(input.state.forgottenThrough, input.turnStartedAt, input.now)) {
    return {
      verdict: 'pass',
      reason: 'turn-forgotten',
      detail: `turn ${input.turnId} started at ${input.turnStartedAt}, before the newest checkpoint this session's state has forgotten (${input.state.forgottenThrough}): a late stop, treated as already checkpointed`,
    };
  }
  const recorded = turn?.blocks ?? 0;
  const blocksSoFar = Math.max(recorded, input.checkpointsDelivered ?? 0);
  if (blocksSoFar >= config.maxBlocksPerTurn) {
    return {
      verdict: 'pass',
      reason: 'turn-limit-reached',
      detail: `${blocksSoFar} of ${config.maxBlocksPerTurn} checkpoint(s) already delivered in turn ${input.turnId}`,
    };
  }
  if (config.minTurnSeconds > 0 && blocksSoFar > 0) {
    const last = validPastTime(turn?.lastBlockAt, input.now);
    if (last !== undefined) {
      const elapsedMs = Math.max(0, input.now.getTime() - last);
      if (elapsedMs < config.minTurnSeconds * 1000) {
        return {
          verdict: 'pass',
          reason: 'too-soon-after-checkpoint',
          detail: `${Math.round(elapsedMs / 100) / 10}s since this turn's last checkpoint, under ${config.minTurnSeconds}s`,
        };
      }
    }
  }
  return { verdict: 'allow', turnId: input.turnId, blocksSoFar };
}

/**
 * A diagnostic when the state records a checkpoint time in the future (beyond
 * {@link FUTURE_TOLERANCE_MS}): the guard ignores such a time, and the next granted checkpoint
 * overwrites it. Undefined when every recorded time is plausible.
 */
export function clockSkewNote(state: SessionState, now: Date): string | undefined {
  const future = [state.lastCheckpointAt, ...state.turns.map((t) => t.lastBlockAt)].filter(
    (iso): iso is string => iso !== undefined && !Number.isNaN(Date.parse(iso)) && validPastTime(iso, now) === undefined,
  );
  if (future.length === 0) return undefined;
  const latest = future.reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b));
  return `loop guard: the session state records a checkpoint at ${latest}, later than now (${now.toISOString()}); clock skew? ignoring it`;
}

/**
 * The turn started at or before the forgotten mark (both known and parseable). A mark in the future
 * (clock skew) is ignored like every other recorded time, or it would pass every new turn until then.
 */
function startedBeforeForgotten(forgottenThrough: string | undefined, startedAt: string | undefined, now: Date): boolean {
  const mark = validPastTime(forgottenThrough, now);
  if (mark === undefined || startedAt === undefined) return false;
  const started = Date.parse(startedAt);
  return !Number.isNaN(started) && started <= mark;
}

/** The time in ms, unless unparseable or later than `now` beyond the tolerance. */
function validPastTime(iso: string | undefined, now: Date): number | undefined {
  if (iso === undefined) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t) || t > now.getTime() + FUTURE_TOLERANCE_MS) return undefined;
  return t;
}
