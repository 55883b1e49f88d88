import type { TokenUsage } from '../timeline/turn-timeline.ts';
import {
  DEFAULT_LATEST_USAGE_HISTORY,
  DEFAULT_LATEST_USAGE_MAX_BYTES,
  LATEST_USAGE_INITIAL_BYTES,
  type LatestUsage,
  type ReadLatestUsageRequest,
} from './transcript-reader.ts';

/** Most records a caller may ask for in `LatestUsage.history`: the read stays bounded by the cap anyway. */
export const LATEST_USAGE_HISTORY_MAX = 1000;

/** The sanitised limits of a {@link ReadLatestUsageRequest} (the request is untrusted input too). */
export interface LatestUsageLimits {
  readonly maxBytes: number;
  /** Backwards read size: the first window, and each step further back. */
  readonly chunkBytes: number;
  /** Records wanted, the newest included (≥ 1). */
  readonly history: number;
  readonly deadlineAt?: number;
}

/**
 * Sanitise a latest-usage request shared by every reader: a missing, negative or non-finite cap
 * takes the default, the history count is an integer in 1…{@link LATEST_USAGE_HISTORY_MAX}.
 */
export function resolveLatestUsageRequest(request: ReadLatestUsageRequest): LatestUsageLimits {
  const cap = request.maxBytes;
  const maxBytes = typeof cap === 'number' && Number.isFinite(cap) && cap >= 0 ? Math.floor(cap) : DEFAULT_LATEST_USAGE_MAX_BYTES;
  const wanted = request.history;
  const history =
    typeof wanted === 'number' && Number.isFinite(wanted) ? Math.min(LATEST_USAGE_HISTORY_MAX, Math.max(1, Math.floor(wanted))) : DEFAULT_LATEST_USAGE_HISTORY;
  const deadline = request.deadlineAt;
  return {
    maxBytes,
    chunkBytes: Math.max(1, Math.min(LATEST_USAGE_INITIAL_BYTES, maxBytes)),
    history,
    ...(typeof deadline === 'number' && !Number.isNaN(deadline) ? { deadlineAt: deadline } : {}),
  };
}

/**
 * Build the {@link LatestUsage} answer from the records a reader found (oldest first): the newest is
 * `usage`, the last `limit` form the history. Undefined when there is none.
 */
export function latestUsageOf(records: readonly TokenUsage[], limit: number, readStats: LatestUsage['readStats']): LatestUsage | undefined {
  const usage = records.at(-1);
  if (!usage) return undefined;
  return {
    usage,
    history: records.slice(-Math.max(1, limit)),
    ...(usage.model !== undefined ? { model: usage.model } : {}),
    ...(usage.timestamp !== undefined ? { timestamp: usage.timestamp } : {}),
    readStats,
  };
}

/**
 * Where the history stops: the start of the backwards chunk (`chunkBytes`, aligned on the end of the
 * file, as `readJsonlTail` reads) that holds the newest record. Older records are collected only down
 * to it, so asking for history never makes the read longer than finding the newest record did (at
 * most the one more chunk that completes the line crossing this offset). The byte cap is for finding
 * the newest record.
 */
export function latestUsageHistoryFloor(fileSize: number, newestOffset: number, chunkBytes: number): number {
  const fromEnd = Math.max(0, fileSize - newestOffset);
  const chunks = Math.max(1, Math.ceil(fromEnd / chunkBytes));
  return Math.max(0, fileSize - chunks * chunkBytes);
}
