import { existsSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { createHash } from 'node:crypto';
import { sessionStatePath, writeFileSafelySync, type SessionStateLocation } from '@agent-checkpoint/core/hot-path';
import type { HookEvent } from '../hook-event.ts';

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
export function promptKeyOf(event: HookEvent): string | undefined {
  const prompt = event.hint.prompt;
  return prompt === undefined ? undefined : `prompt-${createHash('sha256').update(prompt, 'utf8').digest('hex').slice(0, 32)}`;
}
