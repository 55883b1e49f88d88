import { readLatestUsageRecords, type LatestUsage, type ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
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
  return readLatestUsageRecords(request, { needles: USAGE_NEEDLES, usageOfLine });
}

function usageOfLine(raw: unknown): TokenUsage | undefined {
  const line = raw as { type?: unknown; sessionId?: unknown; timestamp?: unknown } | null;
  if (typeof line !== 'object' || line === null || line.type !== 'assistant' || typeof line.sessionId !== 'string') return undefined;
  return usageOf(line as Record<string, unknown>, typeof line.timestamp === 'string' ? line.timestamp : undefined);
}
