import { statSync } from 'node:fs';
import { latestUsageHistoryFloor, latestUsageOf, readJsonlTail, resolveLatestUsageRequest, type LatestUsage, type ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import type { TokenUsage } from '@agent-checkpoint/core';
import { usageOf } from './qwen-usage.ts';

/** Only assistant records hold usage: every other line is skipped on its bytes. */
const USAGE_NEEDLES = ['"usageMetadata"'];

/**
 * The newest usage records of a Qwen Code chat recording (`usageMetadata` of its assistant records,
 * through the reader's one extraction, {@link usageOf}), read backwards from its end. Never throws:
 * a missing, unreadable or foreign file resolves to undefined.
 */
export function readQwenLatestUsage(request: ReadLatestUsageRequest): LatestUsage | undefined {
  try {
    const path = request.transcriptPath;
    if (typeof path !== 'string' || path.length === 0 || request.signal?.aborted) return undefined;
    const stats = statSync(path);
    if (!stats.isFile()) return undefined;
    const limits = resolveLatestUsageRequest(request);
    const records: TokenUsage[] = []; // newest first
    let floor: number | undefined;
    const tail = readJsonlTail(path, {
      maxBytes: limits.maxBytes,
      chunkBytes: limits.chunkBytes,
      mustContainAny: USAGE_NEEDLES,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(limits.deadlineAt !== undefined ? { deadlineAt: limits.deadlineAt } : {}),
      visit: (raw, info) => {
        if (floor !== undefined && info.offset < floor) return 'stop';
        const line = raw as { type?: unknown; sessionId?: unknown; timestamp?: unknown } | null;
        if (typeof line !== 'object' || line === null || line.type !== 'assistant' || typeof line.sessionId !== 'string') return 'continue';
        const usage = usageOf(line as Record<string, unknown>, typeof line.timestamp === 'string' ? line.timestamp : undefined);
        if (usage === undefined) return 'continue';
        records.push(usage);
        floor ??= latestUsageHistoryFloor(stats.size, info.offset, limits.chunkBytes);
        return records.length >= limits.history ? 'stop' : 'continue';
      },
    });
    return latestUsageOf(records.reverse(), limits.history, { bytesRead: tail.bytesRead, fileBytes: tail.fileSize });
  } catch {
    return undefined;
  }
}
