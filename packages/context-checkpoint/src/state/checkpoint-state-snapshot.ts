// core's narrow session-state entry, not its root: the monitor's writer bundle imports this file
// (`monitor-record-entry.ts`) and must not carry the rest of core.
import { errorMessage, readSessionState, updateSessionState } from '@agent-checkpoint/core/session-state';
import type { SessionStateLocation } from '@agent-checkpoint/core/hot-path';
import { type CheckpointStateSnapshot, sessionContextOf, withSessionContext } from './session-slots.ts';

export { checkpointStateSnapshot } from './measure-checkpoint-state.ts';

/**
 * Keep the snapshot in the session's context slot (one record: the status line and `checkpoint
 * --status` read it). Written by the turn end at each reading and by the monitor when its throttle
 * allows (`monitor/checkpoint-state-due.ts`). Never throws.
 */
export async function recordCheckpointState(location: SessionStateLocation, snapshot: CheckpointStateSnapshot): Promise<readonly string[]> {
  try {
    const written = await updateSessionState(
      location,
      (state) => ({ state: { ...withSessionContext(state, { ...sessionContextOf(state), checkpointState: snapshot }), updatedAt: snapshot.at }, value: undefined }),
      { lockWaitMs: 1000 },
    );
    return written.diagnostics;
  } catch (error) {
    return [`context: the checkpoint state is not recorded: ${errorMessage(error)}`];
  }
}

/** `L1 at 72 %, increasing, ~850 tokens/min, ~15 min to L2`: the snapshot for people (who measured it is the caller's to say). */
export function describeCheckpointState(snapshot: CheckpointStateSnapshot): string {
  const parts = [`${snapshot.level} at ${snapshot.percent} %`, snapshot.trend];
  if (snapshot.tokensPerMinute !== undefined) parts.push(`~${snapshot.tokensPerMinute} tokens/min`);
  if (snapshot.minutesToL2 !== undefined) parts.push(snapshot.minutesToL2 === 0 ? 'at or past L2' : `~${snapshot.minutesToL2} min to L2`);
  return parts.join(', ');
}

/** What a session recorded (seed 004's checkpoint-state data): its last snapshot and its last checkpoint. */
export interface RecordedCheckpointState {
  readonly state?: CheckpointStateSnapshot;
  readonly lastCheckpoint?: { readonly handoff: string; readonly at?: string; readonly route?: string };
}

/** The session's recorded checkpoint state (for `checkpoint --status`); undefined when it recorded none. Never throws. */
export async function readRecordedCheckpointState(location: SessionStateLocation): Promise<RecordedCheckpointState | undefined> {
  try {
    const context = sessionContextOf((await readSessionState(location)).state);
    if (context === undefined) return undefined;
    const last =
      context.handoffPath !== undefined
        ? { handoff: context.handoffPath, ...(context.handoffAt !== undefined ? { at: context.handoffAt } : {}), ...(context.handoffRoute !== undefined ? { route: context.handoffRoute } : {}) }
        : undefined;
    if (context.checkpointState === undefined && last === undefined) return undefined;
    return { ...(context.checkpointState !== undefined ? { state: context.checkpointState } : {}), ...(last !== undefined ? { lastCheckpoint: last } : {}) };
  } catch {
    return undefined;
  }
}
