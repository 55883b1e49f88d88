import type { ContextLevel, SessionState } from '@agent-checkpoint/core';
import { sessionContextOf, withSessionContext, type SessionContextState } from './session-slots.ts';
import { levelRank } from '../context/read-context-level.ts';

/** What the end-of-turn context step should do this turn, decided from the session's memory. */
export interface ContextStepPlan {
  /** The context state to store (levels lowered to the reading, handoff claimed). */
  readonly next: SessionContextState;
  /** The level's line has not reached the agent yet in this session: say it (when a message goes out). */
  readonly announce: boolean;
  /** No handoff was written at this level (or above) yet: write one now. */
  readonly handoff: boolean;
  /** True when `next` differs from the stored state (a write is needed). */
  readonly changed: boolean;
}

/**
 * Plan the context step of one turn end. Pure.
 *
 * - A level's line is announced once per session: when the level is above `announcedLevel`.
 * - A handoff is written once per level: when `wantsHandoff` and the level is above `handoffLevel`
 *   (so L3 after an L2 handoff writes the emergency one). Claiming it here, before it is written,
 *   keeps concurrent hooks of one session from writing two.
 * - A reading below the recorded levels (after a compaction or `/clear`) lowers them to it, so the
 *   next climb is announced again. `handoffPath`/`handoffAt` are kept: they describe the last handoff.
 * - `monitorActed` (the highest level the monitor acted on during the turn, its marks already lowered
 *   to the reading): its alert reached the model and its handoff was attempted, so neither the line
 *   nor a handoff is repeated at or below it (one record of the levels acted on).
 */
export function planContextStep(
  current: SessionContextState | undefined,
  input: {
    readonly level: ContextLevel;
    readonly wantsLine: boolean;
    readonly wantsHandoff: boolean;
    readonly now: Date;
    readonly monitorActed?: ContextLevel | undefined;
  },
): ContextStepPlan {
  const cur = current ?? {};
  const rank = levelRank(input.level);
  const lowered = (level: ContextLevel | undefined): ContextLevel | undefined =>
    level === undefined || levelRank(level) <= rank ? level : rank === 0 ? undefined : input.level;
  let next: SessionContextState = withLevels(cur, {
    announcedLevel: lowered(cur.announcedLevel),
    pendingLevel: lowered(cur.pendingLevel),
    handoffLevel: lowered(cur.handoffLevel),
  });
  // A deferral ("one more task") covers this turn end only: consumed here, whatever the level.
  const deferred = cur.deferredLevel !== undefined && input.level !== 'L3' && rank > 0 && rank <= levelRank(cur.deferredLevel);
  if (cur.deferredLevel !== undefined) next = withLevels(next, { deferredLevel: undefined, deferredAt: undefined });
  const monitored = levelRank(input.monitorActed ?? 'L0');
  const announce = !deferred && input.wantsLine && rank > Math.max(monitored, levelRank(next.announcedLevel ?? 'L0'));
  const handoff = !deferred && input.wantsHandoff && rank > Math.max(monitored, levelRank(next.handoffLevel ?? 'L0'));
  if (handoff) next = { ...next, handoffLevel: input.level, handoffAt: input.now.toISOString() };
  return { next, announce, handoff, changed: !sameContext(cur, next) };
}

/**
 * The state after the context line of `level` was put into a message that is about to be delivered
 * (`level` undefined: the message carries no context line). Promoted to `announcedLevel` by
 * {@link promotePendingContext} when the block is granted.
 */
export function withPendingLevel(context: SessionContextState, level: ContextLevel | undefined): SessionContextState {
  return withLevels(context, { pendingLevel: level });
}

/**
 * Called on every granted block (`claimCheckpoint`): the pending line reached the agent, so it
 * becomes the announced level. States without a pending line are returned unchanged.
 */
export function promotePendingContext(state: SessionState, now: Date): SessionState {
  const context = sessionContextOf(state);
  const pending = context?.pendingLevel;
  if (context === undefined || pending === undefined) return state;
  const announced = context.announcedLevel;
  const level = announced !== undefined && levelRank(announced) > levelRank(pending) ? announced : pending;
  return withSessionContext(state, withLevels(context, { announcedLevel: level, pendingLevel: undefined, announcedAt: now.toISOString() }));
}

/**
 * The state with L1/L2 deferred "for one more task" (`checkpoint --defer`): until the next turn end
 * (which consumes it), neither the monitor nor that turn end says anything or writes a handoff for
 * levels up to `level`; L3 is never deferred.
 */
export function withDeferral(context: SessionContextState | undefined, level: 'L1' | 'L2', now: Date): SessionContextState {
  return withLevels(context ?? {}, { deferredLevel: level, deferredAt: now.toISOString() });
}

/** Set or remove (undefined) level fields, keeping `exactOptionalPropertyTypes` happy. */
function withLevels(
  context: SessionContextState,
  changes: Partial<Record<'announcedLevel' | 'pendingLevel' | 'handoffLevel' | 'announcedAt' | 'deferredLevel' | 'deferredAt', string | undefined>>,
): SessionContextState {
  const out: Record<string, unknown> = { ...context };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out as SessionContextState;
}

function sameContext(a: SessionContextState, b: SessionContextState): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  }
  return true;
}
