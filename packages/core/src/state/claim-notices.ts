import { noticeDigest, type TurnEndNotice } from '../turn-end/turn-end-notice.ts';
import { recordNoticesShown } from './session-state.ts';
import { errorMessage, readSessionState, updateSessionState } from './session-state-store.ts';
import type { SessionStateLocation } from './state-files.ts';

/** Input of {@link claimNotices}. */
export interface ClaimNoticesRequest extends SessionStateLocation {
  /** The notices of this turn end (`TurnEndDecision.notices`). */
  readonly notices: readonly TurnEndNotice[];
  /** Longest wait for a concurrent hook holding the session lock. */
  readonly lockWaitMs?: number;
}

/** Result of {@link claimNotices}. */
export interface ClaimNoticesResult {
  /** The notices to show now: those this session has not been shown yet. */
  readonly show: readonly TurnEndNotice[];
  readonly diagnostics: readonly string[];
}

/**
 * Of a turn end's notices, those not yet shown in this session, recorded as shown (by
 * `noticeDigest`) under the session lock, so concurrent hooks show each notice once.
 *
 * Fails towards showing: when the state cannot be locked or written, every notice is returned (better
 * twice than never); a notice never blocks anything. Touches disk only when there are notices, and
 * takes the lock only when one of them is not on record yet. Never throws.
 */
export async function claimNotices(request: ClaimNoticesRequest): Promise<ClaimNoticesResult> {
  if (request.notices.length === 0) return { show: [], diagnostics: [] };
  const unique = [...new Map(request.notices.map((n) => [noticeDigest(n), n])).entries()];
  // The common case once shown (a config stays broken for a while): every stop of the session
  // would take the lock only to learn that; an unlocked read settles it first.
  const seen = (await readSessionState(request)).state.noticesShown ?? [];
  if (unique.every(([digest]) => seen.includes(digest))) return { show: [], diagnostics: [] };
  try {
    const result = await updateSessionState(
      request,
      (state) => {
        const shown = new Set(state.noticesShown ?? []);
        const fresh = unique.filter(([digest]) => !shown.has(digest));
        if (fresh.length === 0) return { state: undefined, value: [] as TurnEndNotice[] };
        return { state: recordNoticesShown(state, fresh.map(([digest]) => digest)), value: fresh.map(([, notice]) => notice) };
      },
      request.lockWaitMs === undefined ? {} : { lockWaitMs: request.lockWaitMs },
    );
    return { show: result.value, diagnostics: result.diagnostics };
  } catch (error) {
    return {
      show: unique.map(([, notice]) => notice),
      diagnostics: [`state: the shown notices could not be recorded (${errorMessage(error)}); showing them again`],
    };
  }
}
