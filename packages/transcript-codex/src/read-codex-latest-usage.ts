import { latestUsageHistoryFloor, latestUsageOf, readJsonlTail, readLatestUsageFile, type LatestUsage, type LatestUsageFile, type ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import { isCodexRolloutLine } from './codex-line-fields.ts';
import { collectTokenUsage } from './collect-token-usage.ts';
import { parseCodexUsageLine, type CodexUsageLineRecord } from './parse-codex-usage-line.ts';

/**
 * Only lines naming one of these types feed `collectTokenUsage` (usage, the window at turn start, the
 * model in the turn context); every other line (tool output, messages, reasoning) is skipped unparsed.
 * Inside a JSON string a quote is escaped, so message text never matches; a false match only costs a parse.
 */
const USAGE_KEYS = ['token_count', 'token_usage_record', 'turn_context', 'task_started', 'turn_started', 'thread_settings_applied'] as const;
/** Checked on the raw bytes, before a line is decoded (`mustContainAny`). */
const USAGE_NEEDLES = USAGE_KEYS.map((key) => `"${key}"`);

/**
 * The newest usage records of a Codex rollout, read backwards from its end, through the reader's own
 * {@link collectTokenUsage} (so the numbers, window and model are those `readTurn` reports).
 *
 * The read goes back until it holds `history` records of the source `collectTokenUsage` will pick
 * (`token_count`; `token_usage_record` only in rollouts without any, checked back to the turn start)
 * or leaves the window the newest record was found in, then on to the turn context that names their
 * model (and to the turn start when a record lacks the window), never past the cap. Never throws: a
 * missing, unreadable or foreign file gives undefined.
 */
export function readCodexLatestUsage(request: ReadLatestUsageRequest): LatestUsage | undefined {
  return readLatestUsageFile(request, (file) => readUsage(request, file));
}

function readUsage(request: ReadLatestUsageRequest, { path, size, limits }: LatestUsageFile): LatestUsage | undefined {
  const records: CodexUsageLineRecord[] = []; // newest first
  let tokenCounts = 0;
  let usageRecords = 0;
  let quotaMet = false;
  let startSeen = false;
  let modelFound = false;
  let windowFound = false;
  let windowMissing = false;
  let floor: number | undefined;
  const tail = readJsonlTail(path, {
    maxBytes: limits.maxBytes,
    chunkBytes: limits.chunkBytes,
    mustContainAny: USAGE_NEEDLES,
    ...(request.signal ? { signal: request.signal } : {}),
    ...(limits.deadlineAt !== undefined ? { deadlineAt: limits.deadlineAt } : {}),
    visit: (entry, info) => {
      if (!isCodexRolloutLine(entry)) return 'continue';
      // Older usage only from the window the newest was found in (history never lengthens the read);
      // past it the read goes on only for the model and window of the records kept.
      if (!quotaMet && floor !== undefined && info.offset < floor) quotaMet = true;
      // Only the usage, turn-start and turn-context records (parse-codex-usage-line.ts): no tool parsing.
      for (const record of parseCodexUsageLine(entry, info.offset)) {
        if (record.type === 'usage') {
          // Records beyond the quota would only lengthen the history past what was asked.
          if (quotaMet) continue;
          if (record.source === 'token_count') tokenCounts += 1;
          else usageRecords += 1;
          // `token_usage_record` never carries the window: it comes from the turn start.
          if (record.contextWindow === undefined) windowMissing = true;
          records.push(record);
          floor ??= latestUsageHistoryFloor(size, info.offset, limits.chunkBytes);
        } else if (record.type === 'turn-context' || record.type === 'turn-start') {
          records.push(record);
          // Only a context or start older than every kept record names their model or window.
          if (record.type === 'turn-start') {
            startSeen = true;
            if (quotaMet) windowFound = true;
          } else if (quotaMet && record.model !== undefined) modelFound = true;
        }
        if (!quotaMet) quotaMet = tokenCounts >= limits.history || (tokenCounts === 0 && usageRecords >= limits.history && startSeen);
      }
      return quotaMet && modelFound && (windowFound || !windowMissing) ? 'stop' : 'continue';
    },
  });
  const usage = collectTokenUsage(records.reverse(), limits.history);
  return latestUsageOf(usage.history, limits.history, { bytesRead: tail.bytesRead, fileBytes: tail.fileSize });
}
