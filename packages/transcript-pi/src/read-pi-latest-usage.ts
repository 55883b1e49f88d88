import { statSync } from 'node:fs';
import type { TokenUsage } from '@agent-checkpoint/core';
import { latestUsageHistoryFloor, latestUsageOf, readJsonlTail, resolveLatestUsageRequest, type LatestUsage, type ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import { parsePiEntry } from './parse-pi-entry.ts';
import { piUsageRecord } from './pi-usage-records.ts';

const USAGE_NEEDLES = ['"usage"'];

/**
 * The newest usage records of a Pi session, from its tail only (the monitor's read after every tool
 * call). Assistant messages carry `usage`; lines without the key are skipped undecoded. Records come
 * from every branch the tail holds, newest first by file order (a `/tree` jump is rare and the
 * newest record is always the current branch's). Never throws; undefined when nothing is found.
 */
export function readPiLatestUsage(request: ReadLatestUsageRequest): LatestUsage | undefined {
  try {
    const path = request.transcriptPath;
    if (typeof path !== 'string' || path.length === 0 || request.signal?.aborted) return undefined;
    const stats = statSync(path);
    if (!stats.isFile()) return undefined;
    const limits = resolveLatestUsageRequest(request);
    const newestFirst: TokenUsage[] = [];
    let floor: number | undefined;
    const tail = readJsonlTail(path, {
      maxBytes: limits.maxBytes,
      chunkBytes: limits.chunkBytes,
      mustContainAny: USAGE_NEEDLES,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(limits.deadlineAt !== undefined ? { deadlineAt: limits.deadlineAt } : {}),
      visit: (raw, info) => {
        // Older records only from the window the newest was found in: history never lengthens the read.
        if (floor !== undefined && info.offset < floor) return 'stop';
        const entry = parsePiEntry(raw);
        if (entry.kind !== 'message' || entry.message.role !== 'assistant') return 'continue';
        const record = piUsageRecord(entry.message, entry.timestamp);
        if (record === undefined) return 'continue';
        newestFirst.push(record);
        floor ??= latestUsageHistoryFloor(stats.size, info.offset, limits.chunkBytes);
        return newestFirst.length >= limits.history ? 'stop' : 'continue';
      },
    });
    return latestUsageOf(newestFirst.reverse(), limits.history, { bytesRead: tail.bytesRead, fileBytes: tail.fileSize });
  } catch {
    return undefined;
  }
}
