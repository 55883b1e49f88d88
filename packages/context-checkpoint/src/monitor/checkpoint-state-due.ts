import { join } from 'node:path';
import { readSmallFileSync, writeFileSafelySync } from '@agent-checkpoint/core/hot-path';
import type { ContextLevel } from '../context/read-context-level.ts';
import type { CheckpointStateSnapshot } from '../state/session-slots.ts';
import { marksDirParts } from './level-marks.ts';

/**
 * At most one checkpoint-state write per session every 30 s while the level holds. The monitor runs
 * after every tool call (often several a minute) and the write loads its acting part (the session
 * state needs zod and the state lock: tens of ms), so every call may not write. 30 s keeps what the
 * status line and `checkpoint --status` show at most half a minute behind, well under the precision
 * of a time to L2 counted in minutes, and costs a session at most two such loads a minute. A new
 * level and an action (L1 warning, L2/L3 checkpoint) are written at once.
 */
export const CHECKPOINT_STATE_INTERVAL_MS = 30_000;

/** The throttle's note in the session's marks directory: the level and time of the last write claimed. */
const NOTE = 'state';

/** Why a snapshot is written now. */
export type CheckpointStateDue = 'first' | 'level' | 'acted' | 'interval';

/**
 * Whether the monitor records `snapshot` now (see {@link CHECKPOINT_STATE_INTERVAL_MS}); when it
 * does, the note is updated first, so the calls after this one wait again even if the write then
 * fails (a failing write is not retried after every tool call). Undefined: nothing to write. The
 * note is a small file in the session's level-marks directory (`marksDir`, already checked private
 * by `readMarks`), written atomically through core's safe write. Reading it is the only cost of a
 * call that writes nothing.
 *
 * @throws UnsafePathError when the marks directory or the note is not ours to write (a link).
 */
export function claimCheckpointStateWrite(marksDir: string, snapshot: CheckpointStateSnapshot, acted: boolean, now: Date): CheckpointStateDue | undefined {
  const last = readNote(join(marksDir, NOTE));
  const due: CheckpointStateDue | undefined = acted
    ? 'acted'
    : last === undefined
      ? 'first'
      : last.level !== snapshot.level
        ? 'level'
        : // A clock set back (a negative age) must not silence the writes until the level changes.
          now.getTime() - last.at >= CHECKPOINT_STATE_INTERVAL_MS || now.getTime() < last.at
          ? 'interval'
          : undefined;
  if (due === undefined) return undefined;
  const { stateDir, relDir } = marksDirParts(marksDir);
  writeFileSafelySync(stateDir, join(relDir, NOTE), `${JSON.stringify({ level: snapshot.level, at: now.toISOString() })}\n`, { rootKind: 'private', mode: 0o600 });
  return due;
}

/** The note's level and epoch ms, or undefined when it is missing or not ours (then a write is due). */
function readNote(path: string): { readonly level: ContextLevel; readonly at: number } | undefined {
  let text: string | undefined;
  try {
    text = readSmallFileSync(path);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const json = JSON.parse(text) as { level?: unknown; at?: unknown };
    const at = typeof json.at === 'string' ? Date.parse(json.at) : Number.NaN;
    const level = json.level === 'L0' || json.level === 'L1' || json.level === 'L2' || json.level === 'L3' ? json.level : undefined;
    return level !== undefined && Number.isFinite(at) ? { level, at } : undefined;
  } catch {
    return undefined;
  }
}
