import { errorMessage, type ContextLevel, type SessionState, type SessionStateLocation } from '@agent-checkpoint/core';
import { claimMark, claimMarkSync, highestMark, lowerMarks, monitorMarksDir, readMark, readMarks, type MarkReading } from '../monitor/level-marks.ts';
import type { MonitorLevel } from '../monitor/monitor-action.ts';
import { promotePendingContext } from '../state/session-context.ts';
import { sessionContextOf } from '../state/session-slots.ts';

/** The monitor's side of the one record of levels acted on, as the turn end sees it. */
export interface TurnEndMarks {
  readonly dir: string;
  /** The highest level the monitor acted on during the session (still holding at this reading). */
  readonly monitorActed?: MonitorLevel;
}

/**
 * Read the session's level marks at the turn end and lower them to the reading (a compaction re-arms
 * both routes alike). Problems become diagnostics and read as "the monitor did nothing".
 */
export async function readTurnEndMarks(location: SessionStateLocation, reading: ContextLevel | MarkReading, diagnostics: string[]): Promise<TurnEndMarks> {
  const dir = monitorMarksDir(location.stateDir, location.agent, location.sessionId);
  try {
    const kept = await lowerMarks(dir, await readMarks(dir), reading);
    const monitorActed = highestMark(kept, 'monitor');
    return { dir, ...(monitorActed !== undefined ? { monitorActed } : {}) };
  } catch (error) {
    diagnostics.push(`context: level marks in ${dir}: ${errorMessage(error)}`);
    return { dir };
  }
}

/**
 * Claim the handoff at `level` in the marks too, after the session state granted it: the monitor's
 * claim is the same exclusive file, so the two routes never write two handoffs at one level even when
 * they race. False only when the monitor holds the level (it acted meanwhile and told the agent);
 * an older turn-end mark or an unusable directory does not stop the turn end's own handoff.
 */
export async function claimTurnEndHandoff(marks: TurnEndMarks, level: MonitorLevel, now: Date, diagnostics: string[]): Promise<boolean> {
  try {
    if (await claimMark(marks.dir, { level, by: 'turn-end', readingLevel: level }, now)) return true;
    return (await readMark(marks.dir, level))?.by !== 'monitor';
  } catch (error) {
    diagnostics.push(`context: cannot mark ${level} in ${marks.dir}: ${errorMessage(error)}`);
    return true;
  }
}

/**
 * The turn end's granted-block callback: promote the pending line to announced
 * ({@link promotePendingContext}) and mark its level, so the monitor does not say it again during
 * the next turn. Marked only here, when the line reached the agent; a refused block leaves both to
 * the next turn end. Marking is best effort: a failure never costs the granted block.
 *
 * `countL1Warning`, when the turn's line is the L1 warning: its metrics event, validated beforehand
 * and appended here, the one place that knows the line was delivered (best effort as the mark).
 */
export function promoteAndMark(location: SessionStateLocation | undefined, countL1Warning?: () => unknown): (state: SessionState, now: Date) => SessionState {
  return (state, now) => {
    const pending = sessionContextOf(state)?.pendingLevel;
    const next = promotePendingContext(state, now);
    if (location !== undefined && pending !== undefined && pending !== 'L0') {
      try {
        claimMarkSync(monitorMarksDir(location.stateDir, location.agent, location.sessionId), { level: pending, by: 'turn-end', readingLevel: pending }, now);
      } catch {
        // The marks directory is unusable: the monitor may say this level once more.
      }
    }
    if (pending === 'L1' && countL1Warning !== undefined) {
      try {
        countL1Warning();
      } catch {
        // The metrics log is unwritable: statistics, never the granted block.
      }
    }
    return next;
  };
}
