import { statSync } from 'node:fs';
import type { TokenUsage } from '@agent-checkpoint/core';
import { latestUsageHistoryFloor, latestUsageOf, readJsonlTail, resolveLatestUsageRequest, type LatestUsage, type ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import { copilotUsageOf } from './copilot-usage.ts';

/** Only `session.usage_record` lines hold usage: every other line is skipped on its bytes. */
const USAGE_NEEDLES = ['"session.usage_record"'];

/**
 * The newest usage records of the main agent in a Copilot CLI `events.jsonl`, read backwards from its
 * end (a subagent's records, `initiator: "sub-agent"`, measure its own context and are skipped).
 * Never throws: a missing, unreadable or foreign file resolves to undefined.
 */
export function readCopilotLatestUsage(request: ReadLatestUsageRequest): LatestUsage | undefined {
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
        const line = raw as { type?: unknown; data?: unknown; timestamp?: unknown } | null;
        if (typeof line !== 'object' || line === null || line.type !== 'session.usage_record') return 'continue';
        const record = copilotUsageOf(line.data, typeof line.timestamp === 'string' ? line.timestamp : undefined);
        if (record === undefined || record.subagent) return 'continue';
        records.push(record.usage);
        floor ??= latestUsageHistoryFloor(stats.size, info.offset, limits.chunkBytes);
        return records.length >= limits.history ? 'stop' : 'continue';
      },
    });
    return latestUsageOf(records.reverse(), limits.history, { bytesRead: tail.bytesRead, fileBytes: tail.fileSize });
  } catch {
    return undefined;
  }
}
