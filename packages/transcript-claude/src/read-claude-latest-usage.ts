import { latestUsageHistoryFloor, latestUsageOf, readJsonlTail, readLatestUsageFile, type LatestUsage, type LatestUsageFile, type ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import { usageLineRecords } from './claude-usage-records.ts';
import { parseClaudeUsageLine, type ClaudeUsageLine } from './parse-claude-usage.ts';
import { skipClaudeBookkeepingLine } from './skip-claude-bookkeeping-line.ts';

/**
 * Lines without a `"usage"` key cannot hold a usage record: skipped on their bytes, undecoded (tool
 * results, prompts and attachments are most of a transcript's bytes). The bookkeeping filter drops
 * `api-request` lines, which do carry usage but of the request log, not of the conversation.
 */
const USAGE_NEEDLES = ['"usage"'];

/**
 * The newest usage records of a Claude Code transcript, read backwards from its end: the first
 * 64 KiB, further back (never past the cap) only until a response with usage is found; older
 * responses, up to `history`, only from the window that one was found in.
 * Never throws: a missing, unreadable or foreign file resolves to undefined.
 */
export function readClaudeLatestUsage(request: ReadLatestUsageRequest): LatestUsage | undefined {
  return readLatestUsageFile(request, (file) => readUsage(request, file));
}

function readUsage(request: ReadLatestUsageRequest, { path, size, limits }: LatestUsageFile): LatestUsage | undefined {
  const lines: ClaudeUsageLine[] = []; // newest first
  const responses = new Set<string>();
  let anonymous = 0;
  let floor: number | undefined;
  const tail = readJsonlTail(path, {
    maxBytes: limits.maxBytes,
    chunkBytes: limits.chunkBytes,
    mustContainAny: USAGE_NEEDLES,
    skipLine: skipClaudeBookkeepingLine,
    ...(request.signal ? { signal: request.signal } : {}),
    ...(limits.deadlineAt !== undefined ? { deadlineAt: limits.deadlineAt } : {}),
    visit: (raw, info) => {
      // Older records only from the window the newest was found in: history never lengthens the read.
      if (floor !== undefined && info.offset < floor) return 'stop';
      // The usage fields only, by the turn reader's rules (parse-claude-usage.ts): no content blocks.
      const line = parseClaudeUsageLine(raw);
      if (line === undefined) return 'continue';
      lines.push(line);
      floor ??= latestUsageHistoryFloor(size, info.offset, limits.chunkBytes);
      // One response spans several entries: count responses, as `claudeUsageRecords` keys them.
      responses.add(line.messageId ?? `#${(anonymous += 1)}`);
      return responses.size >= limits.history ? 'stop' : 'continue';
    },
  });
  return latestUsageOf(usageLineRecords(lines.reverse()), limits.history, { bytesRead: tail.bytesRead, fileBytes: tail.fileSize });
}
