import type { ContextLevel, SessionState } from '@agent-checkpoint/core';
// zod/mini, like core's session state schema: this runs at turn ends.
import * as z from 'zod/mini';

/**
 * This package's slots in the session state (`SessionState.extensions`): core stores them without
 * knowing their shape; they are typed and validated here. An invalid slot (a hand-edited or foreign
 * file) reads as absent, as core's strict schema used to treat the whole file. Old state files held
 * them at the top level; core moves them into the slots on read (`migrateSessionStateJson`).
 */

/**
 * What a session remembers about its context window, so a level's line is said once and a handoff is
 * written once per level (docs/context-checkpoints.md, "End of turn").
 *
 * Levels only go up within a session; when a reading comes back lower (a compaction, `/clear`), the
 * recorded levels drop to it, so climbing again announces again.
 */
export interface SessionContextState {
  /** Highest level whose line reached the agent (promoted from `pendingLevel` by `claimCheckpoint`). */
  readonly announcedLevel?: ContextLevel;
  readonly announcedAt?: string;
  /**
   * Level of a line that is in a message not delivered yet. `claimCheckpoint` turns it into
   * `announcedLevel` when the block is granted; a refused claim leaves it to be said again.
   */
  readonly pendingLevel?: ContextLevel;
  /** Highest level a handoff was written (or direct execution ran) at. */
  readonly handoffLevel?: ContextLevel;
  readonly handoffAt?: string;
  /** Repo-relative path of that handoff, when one was written. */
  readonly handoffPath?: string;
  /**
   * The user deferred L1/L2 "for one more task" (seed 004; `checkpoint --defer`): the monitor (which
   * reads this one field after each tool call) and the next turn end stay quiet about levels up to
   * this one (never L3); that turn end consumes the deferral either way.
   */
  readonly deferredLevel?: 'L1' | 'L2';
  readonly deferredAt?: string;
  /**
   * The handoff this session was given at its start (its name, `2026-01-07-1145`): the resume whose
   * outcome is still to be recorded (`steps/resume-outcome.ts`).
   */
  readonly resumedHandoff?: string;
  readonly resumedAt?: string;
  /** Set once the resume's outcome was recorded in the metrics: it is recorded once. */
  readonly resumeOutcome?: ResumeOutcome;
  /** The route that wrote `handoffPath` (seed 004 `lastCheckpoint.reason`). */
  readonly handoffRoute?: 'turn-end' | 'monitor' | 'pre-compact' | 'manual';
  /** The session's checkpoint state at its last reading (seed 004 "Checkpoint State"). */
  readonly checkpointState?: CheckpointStateSnapshot;
}

/** Which route measured a checkpoint-state snapshot: the turn end, or the monitor after a tool call. */
export type CheckpointStateSource = 'turn-end' | 'monitor';

/**
 * Seed 004's checkpoint state (`currentLevel`, `contextPercent`, `contextTrend`, `tokensPerMinute`,
 * `estimatedTimeToL2`), as the last turn end or monitor run measured it (`state/measure-checkpoint-state.ts`).
 */
export interface CheckpointStateSnapshot {
  readonly level: ContextLevel;
  readonly percent: number;
  /** `increasing` (the context grew over the measured calls), `decreasing` (it fell: a compaction or `/clear`), else `stable`. */
  readonly trend: 'increasing' | 'stable' | 'decreasing';
  /** Growth per minute over the timestamped usage records, when measurable. */
  readonly tokensPerMinute?: number;
  /** Minutes to L2 at that pace (one decimal); 0 at or above L2; absent without a pace. */
  readonly minutesToL2?: number;
  /** When it was measured (ISO 8601). */
  readonly at: string;
  /** Who measured it; absent in snapshots written before the monitor recorded them (the turn end's). */
  readonly by?: CheckpointStateSource;
}

/**
 * What became of a resumed handoff (seed 004 "Session continuity success rate"):
 * - `continued`: the resuming session (or loop iteration) reached a turn end in which it did work
 *   (at least one successful tool call): it picked the task up;
 * - `not-continued`: it compacted (PreCompact) before such a turn end, or the loop iteration that
 *   was given it ended (`loop next`) without one: the resume failed or was abandoned.
 */
export type ResumeOutcome = 'continued' | 'not-continued';

/**
 * The commit gate (seed 001, opt-in) of one turn: armed when our block of that turn is granted
 * (`armCommitGate`, core's `claimCheckpoint` `onGranted`, writes this slot), and used by at most one more
 * block on a later stop of the same turn.
 */
export interface CommitGateState {
  /** The turn key the block was claimed under. */
  readonly turnId: string;
  /** Gemini: `prompt-<digest>` of the payload prompt (its stop payloads carry no turn id). */
  readonly promptKey?: string;
  readonly armedAt: string;
  /** Set once the gate's one extra block was granted: every later stop of the turn passes. */
  readonly blockedAt?: string;
}

const isoTime = z.string().check(z.refine((s) => !Number.isNaN(Date.parse(s)), 'not a date'));
const contextLevel = z.enum(['L0', 'L1', 'L2', 'L3']);

const SessionContextSchema = z.looseObject({
  announcedLevel: z.optional(contextLevel),
  announcedAt: z.optional(isoTime),
  pendingLevel: z.optional(contextLevel),
  handoffLevel: z.optional(contextLevel),
  handoffAt: z.optional(isoTime),
  handoffPath: z.optional(z.string()),
  deferredLevel: z.optional(z.enum(['L1', 'L2'])),
  deferredAt: z.optional(isoTime),
  resumedHandoff: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  resumedAt: z.optional(isoTime),
  resumeOutcome: z.optional(z.enum(['continued', 'not-continued'])),
  handoffRoute: z.optional(z.enum(['turn-end', 'monitor', 'pre-compact', 'manual'])),
  checkpointState: z.optional(
    z.object({
      level: contextLevel,
      percent: z.number().check(z.minimum(0), z.maximum(1000)),
      trend: z.enum(['increasing', 'stable', 'decreasing']),
      tokensPerMinute: z.optional(z.number().check(z.minimum(0), z.maximum(1e9))),
      minutesToL2: z.optional(z.number().check(z.minimum(0), z.maximum(1e9))),
      at: isoTime,
      by: z.optional(z.enum(['turn-end', 'monitor'])),
    }),
  ),
});

const CommitGateStateSchema = z.looseObject({
  turnId: z.string().check(z.minLength(1)),
  promptKey: z.optional(z.string()),
  armedAt: isoTime,
  blockedAt: z.optional(isoTime),
});

/** Slot names in `SessionState.extensions`. */
const CONTEXT_SLOT = 'context';
const COMMIT_GATE_SLOT = 'commitGate';

function slot<T>(state: Pick<SessionState, 'extensions'>, name: string, schema: z.ZodMiniType<T>): T | undefined {
  const value = state.extensions?.[name];
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function withSlot(state: SessionState, name: string, value: unknown): SessionState {
  const { [name]: _old, ...others } = state.extensions ?? {};
  return { ...state, extensions: value === undefined ? others : { ...others, [name]: value } };
}

/** The session's context bookkeeping, or undefined when none (or an invalid slot). */
export function sessionContextOf(state: Pick<SessionState, 'extensions'>): SessionContextState | undefined {
  return slot(state, CONTEXT_SLOT, SessionContextSchema) as SessionContextState | undefined;
}

/** `state` with its context bookkeeping replaced. */
export function withSessionContext(state: SessionState, context: SessionContextState): SessionState {
  return withSlot(state, CONTEXT_SLOT, context);
}

/** The armed commit gate, or undefined when none (or an invalid slot). */
export function commitGateStateOf(state: Pick<SessionState, 'extensions'>): CommitGateState | undefined {
  return slot(state, COMMIT_GATE_SLOT, CommitGateStateSchema) as CommitGateState | undefined;
}

/** `state` with its commit gate replaced. */
export function withCommitGateState(state: SessionState, gate: CommitGateState): SessionState {
  return withSlot(state, COMMIT_GATE_SLOT, gate);
}
