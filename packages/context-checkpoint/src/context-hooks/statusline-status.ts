import { readSessionState, type AgentId } from '@agent-checkpoint/core';
import { sessionContextOf, type CheckpointStateSnapshot } from '../state/session-slots.ts';
import { openContextHook, type ContextHookSettings } from './open-context-hook.ts';

/**
 * How long after a handoff the checkpoint that delivered it may be recorded and the status line still
 * says `handoff HH:MM`: the Stop route writes the handoff, then claims the block that announces it (a
 * later `lastCheckpointAt`, within the hook's deadline). A checkpoint later than this is a new one.
 */
const HANDOFF_DELIVERY_MS = 60_000;

/**
 * How old a recorded checkpoint state may be for the status line to show its trend and time to L2.
 * The monitor records one at least every 30 s while tools run and the turn end at each turn end, so
 * an older one belongs to a session that has been idle: its pace says nothing about the next minutes.
 */
export const RECORDED_STATE_FRESH_MS = 5 * 60_000;

/** What the status line's `[CKPT: …]` part says. */
export type CheckpointStatus =
  /** An off switch (env, global, project or this session) silences checkpoints. */
  | { readonly kind: 'off' }
  /** `"enabled": false` in the configuration. */
  | { readonly kind: 'disabled' }
  /** A handoff was written in this session (context level or PreCompact). */
  | { readonly kind: 'handoff'; readonly at: Date }
  /** The last checkpoint delivered in this session. */
  | { readonly kind: 'last'; readonly at: Date }
  /** On, nothing delivered yet. */
  | { readonly kind: 'ready' };

/** Input of {@link readStatuslineStatus}. */
export interface StatuslineFacts {
  readonly agent: AgentId;
  readonly cwd: string;
  readonly stateDir: string;
  readonly sessionId: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The clock (tests); default now. */
  readonly now?: Date;
}

/** The status line's checkpoint part and the configuration its context part is read with. */
export interface StatuslineStatus {
  readonly settings: ContextHookSettings;
  readonly checkpoint: CheckpointStatus;
  /**
   * Seed 004's checkpoint state as the session last recorded it (the monitor after a tool call, or
   * the turn end), when at most {@link RECORDED_STATE_FRESH_MS} old: its trend and time to L2.
   */
  readonly recordedState?: CheckpointStateSnapshot;
  readonly diagnostics: readonly string[];
}

/**
 * The status line's facts behind the context hooks' early check ({@link openContextHook}, need
 * `status`): the thresholds and window of the configuration (shown whether or not `context.enabled`
 * is on: the status line is its own opt-in), and the checkpoint status from the off switches (the
 * project's included) and the session's small state file. No git, no lock.
 */
export async function readStatuslineStatus(facts: StatuslineFacts): Promise<StatuslineStatus> {
  const gate = await openContextHook({ cwd: facts.cwd, stateDir: facts.stateDir, sessionId: facts.sessionId, env: facts.env, need: 'status' });
  // `status` always loads the configuration; the type cannot say so for a switched-off pass.
  if (gate.settings === undefined) throw new Error('the early check returned no configuration for the status line');
  const { settings, diagnostics } = gate;
  if (gate.kind === 'pass') return { settings, diagnostics, checkpoint: gate.reason === 'switched-off' ? { kind: 'off' } : { kind: 'disabled' } };
  if (facts.sessionId === undefined) return { settings, diagnostics, checkpoint: { kind: 'ready' } };
  const { state } = await readSessionState({ stateDir: facts.stateDir, agent: facts.agent, sessionId: facts.sessionId });
  const context = sessionContextOf(state);
  const handoffAt = time(context?.handoffAt);
  const lastAt = time(state.lastCheckpointAt);
  const checkpoint: CheckpointStatus =
    handoffAt !== undefined && (lastAt === undefined || handoffAt.getTime() + HANDOFF_DELIVERY_MS >= lastAt.getTime())
      ? { kind: 'handoff', at: handoffAt }
      : lastAt !== undefined
        ? { kind: 'last', at: lastAt }
        : { kind: 'ready' };
  const recorded = context?.checkpointState;
  const recordedAt = time(recorded?.at);
  const age = recordedAt === undefined ? undefined : (facts.now ?? new Date()).getTime() - recordedAt.getTime();
  const fresh = recorded !== undefined && age !== undefined && age >= 0 && age <= RECORDED_STATE_FRESH_MS;
  return { settings, diagnostics, checkpoint, ...(fresh ? { recordedState: recorded } : {}) };
}

function time(iso: string | undefined): Date | undefined {
  if (iso === undefined) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
