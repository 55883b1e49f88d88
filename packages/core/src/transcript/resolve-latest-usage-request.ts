import type { TokenUsage } from '../timeline/turn-timeline.ts';
import { readJsonlTail } from './read-jsonl-tail.ts';
import { transcriptFileState } from './transcript-file-state.ts';
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

/** What {@link readLatestUsageFile} hands a reader's format logic: a non-empty regular file and the request's limits. */
export interface LatestUsageFile {
  readonly path: string;
  /** Size when the prologue looked (the tail read sees its own). */
  readonly size: number;
  readonly limits: LatestUsageLimits;
}

/**
 * The prologue every `readLatestUsage` shares, around the reader's format logic `read`: an aborted
 * request, a path that is missing, not a regular file (a FIFO is never opened), empty or unreadable,
 * and anything `read` throws all resolve to undefined (the monitor then says nothing). Never throws.
 */
export function readLatestUsageFile(request: ReadLatestUsageRequest, read: (file: LatestUsageFile) => LatestUsage | undefined): LatestUsage | undefined {
  try {
    if (request.signal?.aborted) return undefined;
    const state = transcriptFileState(request.transcriptPath);
    if (state.kind !== 'file') return undefined;
    return read({ path: state.path, size: state.size, limits: resolveLatestUsageRequest(request) });
  } catch {
    return undefined;
  }
}

/** What {@link readLatestUsageRecords} needs of one agent's format. */
export interface LatestUsageFormat {
  /** Byte strings one of which a usage line must contain: other lines are skipped undecoded. */
  readonly needles: readonly string[];
  /** The usage a decoded line holds, or undefined (another kind of line, a subagent's record…). */
  readonly usageOfLine: (line: unknown) => TokenUsage | undefined;
}

/**
 * The newest usage records of a JSONL transcript whose usage lines stand alone (one line, one
 * record: Copilot's `session.usage_record`, Qwen's assistant records), read backwards from its end
 * within the request's limits, history down to {@link latestUsageHistoryFloor}. Never throws: a
 * missing, unreadable or foreign file resolves to undefined. Formats that must pair or merge lines
 * (Claude's per-response records) keep their own loop inside {@link readLatestUsageFile}.
 */
export function readLatestUsageRecords(request: ReadLatestUsageRequest, format: LatestUsageFormat): LatestUsage | undefined {
  return readLatestUsageFile(request, ({ path, size, limits }) => {
    const records: TokenUsage[] = []; // newest first
    let floor: number | undefined;
    const tail = readJsonlTail(path, {
      maxBytes: limits.maxBytes,
      chunkBytes: limits.chunkBytes,
      mustContainAny: format.needles,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(limits.deadlineAt !== undefined ? { deadlineAt: limits.deadlineAt } : {}),
      visit: (raw, info) => {
        if (floor !== undefined && info.offset < floor) return 'stop';
        const usage = format.usageOfLine(raw);
        if (usage === undefined) return 'continue';
        records.push(usage);
        floor ??= latestUsageHistoryFloor(size, info.offset, limits.chunkBytes);
        return records.length >= limits.history ? 'stop' : 'continue';
      },
    });
    return latestUsageOf(records.reverse(), limits.history, { bytesRead: tail.bytesRead, fileBytes: tail.fileSize });
  });
}
