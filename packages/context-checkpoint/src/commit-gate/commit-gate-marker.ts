import { existsSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { createHash } from 'node:crypto';
import type { SessionState } from '@agent-checkpoint/core';
import { sessionStatePath, writeFileSafelySync, type SessionStateLocation } from '@agent-checkpoint/core/hot-path';

/**
 * The commit gate's cheap flag: `<stateDir>/sessions/<agent>-<id>.json.gate` exists while a gate is
 * armed in the session. The escape-hatch stop (`stop_hook_active: true`) checks only this file's
 * existence — one `stat` — so with the gate off it loads nothing and reads nothing. The truth (which
 * turn, whether the extra block was used) is in the session state, re-checked under the lock.
 */
export function commitGateMarkerPath(location: SessionStateLocation): string {
  return `${sessionStatePath(location)}.gate`;
}

export function isCommitGateMarked(location: SessionStateLocation): boolean {
  try {
    return existsSync(commitGateMarkerPath(location));
  } catch {
    return false;
  }
}

/** Create the flag (best effort: without it only Gemini's non-escape-hatch stops see the gate). */
export function markCommitGate(location: SessionStateLocation): string | undefined {
  try {
    // Never through a link planted in the state directory (see core fs-safe).
    writeFileSafelySync(location.stateDir, relative(location.stateDir, commitGateMarkerPath(location)), '', { rootKind: 'private', mode: 0o600 });
    return undefined;
  } catch (error) {
    return `commit gate: cannot create ${commitGateMarkerPath(location)}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function clearCommitGate(location: SessionStateLocation): void {
  try {
    rmSync(commitGateMarkerPath(location), { force: true });
  } catch {
    // A leftover flag only costs the next escape-hatch stop one state read; it is removed then.
  }
}

/**
 * Gemini's turn key for the gate: its stop payloads carry no turn id, but repeat the prompt unchanged
 * on every AfterAgent of a prompt (the same digest as the loop guard's fallback key).
 */
export function promptKeyOf(prompt: string | undefined): string | undefined {
  return prompt === undefined ? undefined : `prompt-${createHash('sha256').update(prompt, 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * The commit gate's bookkeeping of a granted block (core's `onGranted`, applied under the session
 * lock): the `commitGate` slot names the turn the block was recorded under (and, for Gemini, the
 * prompt's key), so a later stop of that turn may block once more for uncommitted work.
 */
export function armCommitGate(prompt: string | undefined): (state: SessionState, now: Date, turnId: string) => SessionState {
  const promptKey = promptKeyOf(prompt);
  return (state, now, turnId) => ({
    ...state,
    extensions: { ...state.extensions, commitGate: { turnId, ...(promptKey === undefined ? {} : { promptKey }), armedAt: now.toISOString() } },
  });
}
