import { type AgentId, type ContextLevel, errorMessage, updateSessionState } from '@agent-checkpoint/core';
import type { HandoffWork } from '../handoff/write-handoff.ts';
import { recordLoopTurn } from '../loop/loop-steps.ts';
import { recordMetric } from '../metrics/record-metric.ts';
import { sessionContextOf, withSessionContext } from '../state/session-slots.ts';

/**
 * The route that wrote a checkpoint: the turn end (Stop), the monitor after a tool call, the
 * PreCompact hook, or the user's `checkpoint` command.
 */
export type CheckpointRoute = 'turn-end' | 'monitor' | 'pre-compact' | 'manual';

/** "A checkpoint happened at `level` by `route`", once the handoff is on disk. */
export interface CheckpointRecord {
  readonly route: CheckpointRoute;
  readonly agent: AgentId;
  readonly projectRoot: string;
  /** The reading's level when it happened (`L0`: a manual or compaction checkpoint below L1). */
  readonly level: ContextLevel;
  /** The reading's display percent, when known. */
  readonly percent?: number;
  /** The handoff written (repo-relative). */
  readonly handoffPath: string;
  /** Where the work stands, as the handoff says it (the loop state keeps it). */
  readonly work?: HandoffWork;
  readonly sessionId?: string;
  /** The hook's state directory: metrics and the session's state live there; without it neither is written. */
  readonly stateDir?: string;
  readonly now: Date;
}

/**
 * Record one checkpoint in every place that reads checkpoints, whichever route wrote it
 * (docs/context-checkpoints.md, "One record of checkpoints"):
 *
 * - the loop state (`.agent-checkpoint/loop-state.json`, when a loop runs): the pending handoff and
 *   the end-this-iteration signal, so `loop next` / `loop status` / `resume-prompt` see it (RLP-003);
 * - the success metrics: one `handoff` event (`trigger: user` for the manual command, else `auto`);
 * - the session's context slot (`handoffAt`, `handoffPath`, `handoffRoute`: seed 004's `lastCheckpoint`):
 *   what the status line and `checkpoint --status` show.
 *
 * Exactly once per level is the callers' claim (the level marks: the monitor and the turn end claim a
 * level before writing); this records what a claim produced. Never throws; returns diagnostics.
 */
export async function recordCheckpoint(record: CheckpointRecord): Promise<readonly string[]> {
  const diagnostics: string[] = [];
  diagnostics.push(
    ...(await recordLoopTurn({
      projectRoot: record.projectRoot,
      level: record.level,
      ...(record.percent !== undefined ? { percent: record.percent } : {}),
      handoffPath: record.handoffPath,
      ...(record.work !== undefined ? { work: record.work } : {}),
      now: record.now,
    })),
  );
  if (record.stateDir === undefined) return diagnostics;
  const name = record.handoffPath.slice(record.handoffPath.lastIndexOf('/') + 1).replace(/\.md$/, '');
  // The metrics schema knows L1–L3: a checkpoint below L1 (manual, an early /compact) counts under L1.
  const level = record.level === 'L0' ? 'L1' : record.level;
  const trigger = record.route === 'manual' ? 'user' : 'auto';
  const note = await recordMetric({ stateDir: record.stateDir, projectRoot: record.projectRoot }, { type: 'handoff', at: record.now.toISOString(), level, trigger, handoff: name });
  if (note !== undefined) diagnostics.push(note);
  if (record.sessionId !== undefined && record.sessionId !== '') diagnostics.push(...(await rememberInSession(record, record.stateDir, record.sessionId)));
  return diagnostics;
}

/** The session's context slot: the handoff and when (the status line's `[CKPT: handoff HH:MM]`). */
async function rememberInSession(record: CheckpointRecord, stateDir: string, sessionId: string): Promise<string[]> {
  const at = record.now.toISOString();
  try {
    const result = await updateSessionState(
      { stateDir, agent: record.agent, sessionId },
      (state) => ({ state: { ...withSessionContext(state, { ...sessionContextOf(state), handoffPath: record.handoffPath, handoffAt: at, handoffRoute: record.route }), updatedAt: at }, value: undefined }),
      { lockWaitMs: 1000 },
    );
    return [...result.diagnostics];
  } catch (error) {
    return [`checkpoint record: cannot record the handoff in the session state: ${errorMessage(error)}`];
  }
}
