import type { TokenUsage } from '@agent-checkpoint/core';
import { readLatestUsageRecords, type LatestUsage, type ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import { parsePiEntry } from './parse-pi-entry.ts';
import { piUsageRecord } from './pi-usage-records.ts';

/** Only assistant messages carry `usage`: every other line is skipped on its bytes. */
const USAGE_NEEDLES = ['"usage"'];

/**
 * The newest usage records of a Pi session, from its tail only (the monitor's read after every tool
 * call), through core's shared tail loop. Records come from every branch the tail holds, newest first
 * by file order (a `/tree` jump is rare and the newest record is always the current branch's). Never
 * throws; undefined when nothing is found.
 */
export function readPiLatestUsage(request: ReadLatestUsageRequest): LatestUsage | undefined {
  return readLatestUsageRecords(request, { needles: USAGE_NEEDLES, usageOfLine });
}

function usageOfLine(raw: unknown): TokenUsage | undefined {
  const entry = parsePiEntry(raw);
  if (entry.kind !== 'message' || entry.message.role !== 'assistant') return undefined;
  return piUsageRecord(entry.message, entry.timestamp);
}
