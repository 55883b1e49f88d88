import type { TokenUsage } from '@agent-checkpoint/core';
import { readLatestUsageRecords, type LatestUsage, type ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import { copilotUsageOf } from './copilot-usage.ts';

/** Only `session.usage_record` lines hold usage: every other line is skipped on its bytes. */
const USAGE_NEEDLES = ['"session.usage_record"'];

/**
 * The newest usage records of the main agent in a Copilot CLI `events.jsonl`, read backwards from its
 * end (a subagent's records, `initiator: "sub-agent"`, measure its own context and are skipped).
 * Never throws: a missing, unreadable or foreign file resolves to undefined.
 */
export function readCopilotLatestUsage(request: ReadLatestUsageRequest): LatestUsage | undefined {
  return readLatestUsageRecords(request, { needles: USAGE_NEEDLES, usageOfLine });
}

function usageOfLine(raw: unknown): TokenUsage | undefined {
  const line = raw as { type?: unknown; data?: unknown; timestamp?: unknown } | null;
  if (typeof line !== 'object' || line === null || line.type !== 'session.usage_record') return undefined;
  const record = copilotUsageOf(line.data, typeof line.timestamp === 'string' ? line.timestamp : undefined);
  return record === undefined || record.subagent ? undefined : record.usage;
}
