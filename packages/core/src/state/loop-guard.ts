import type { ResolvedConfig } from '../config/config-schema.ts';
import { findTurn, type SessionState } from './session-state.ts';

/** Loop guard settings (`loopGuard` in the config file). */
export type LoopGuardConfig = ResolvedConfig['loopGuard'];

/** Defaults used when a route has no resolved config at hand. */
export const DEFAULT_LOOP_GUARD: LoopGuardConfig = { maxBlocksPerTurn: 1, minTurnSeconds: 30 };

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
  /** ISO-8601 time of the turn's opening prompt (`TurnTimeline.startedAt`), when known. */
  readonly turnStartedAt?: string | undefined;
  /**
   * Our checkpoints the transcript shows in this turn (`TurnTimeline.checkpointsDelivered`). Counts
   * like the state file, so a lost state dir or the other route's delivery still limits blocks.
   */
  readonly checkpointsDelivered?: number | undefined;
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
  /** Less than `minTurnSeconds` since the later of the prompt and our last checkpoint. */
  | 'turn-too-short';

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
 * 3. at most `maxBlocksPerTurn` blocks per real user turn (0 never blocks), counting the larger of the
 *    state file's count and the transcript's `checkpointsDelivered`;
 * 4. the turn must have lasted `minTurnSeconds` (0 disables), measured from the later of the turn's
 *    prompt time and our last checkpoint in this session; unknown times do not shorten the turn.
 */
export function decideLoopGuard(input: LoopGuardInput): LoopGuardDecision {
  const { config } = input;
  if (input.stopHookActive) {
    return { verdict: 'pass', reason: 'stop-hook-active', detail: 'stop_hook_active is true' };
  }
  if (input.turnId === undefined || input.turnId === '') {
    return { verdict: 'pass', reason: 'no-turn-identity', detail: 'no turn id in the payload or transcript' };
  }
  const recorded = findTurn(input.state, input.turnId)?.blocks ?? 0;
  const blocksSoFar = Math.max(recorded, input.checkpointsDelivered ?? 0);
  if (blocksSoFar >= config.maxBlocksPerTurn) {
    return {
      verdict: 'pass',
      reason: 'turn-limit-reached',
      detail: `${blocksSoFar} of ${config.maxBlocksPerTurn} checkpoint(s) already delivered in turn ${input.turnId}`,
    };
  }
  if (config.minTurnSeconds > 0) {
    const start = latestTime(input.turnStartedAt, input.state.lastCheckpointAt);
    if (start !== undefined) {
      const elapsedMs = input.now.getTime() - start;
      if (elapsedMs < config.minTurnSeconds * 1000) {
        return {
          verdict: 'pass',
          reason: 'turn-too-short',
          detail: `${Math.round(elapsedMs / 100) / 10}s since turn start, under ${config.minTurnSeconds}s`,
        };
      }
    }
  }
  return { verdict: 'allow', turnId: input.turnId, blocksSoFar };
}

function latestTime(...isoTimes: ReadonlyArray<string | undefined>): number | undefined {
  let latest: number | undefined;
  for (const iso of isoTimes) {
    if (iso === undefined) continue;
    const t = Date.parse(iso);
    if (Number.isNaN(t)) continue;
    if (latest === undefined || t > latest) latest = t;
  }
  return latest;
}
