import { statSync } from 'node:fs';
import { latestUsageOf, readJsonlTail, resolveLatestUsageRequest, type LatestUsage, type ReadLatestUsageRequest } from '@agent-checkpoint/core';
import { claudeUsageRecords, hasContextUsage } from './claude-usage-records.ts';
import { parseClaudeLine, type ClaudeEntry } from './parse-claude-entry.ts';
import { skipClaudeBookkeepingLine } from './skip-claude-bookkeeping-line.ts';

/**
 * Lines without a `"usage"` key cannot hold a usage record: skipped unparsed (tool results, prompts
 * and attachments are most of a transcript's bytes). The bookkeeping filter drops `api-request`
 * lines, which do carry usage but of the request log, not of the conversation.
 */
function skipLine(line: string): boolean {
  return !line.includes('"usage"') || skipClaudeBookkeepingLine(line);
}

/**
 * The newest usage records of a Claude Code transcript, read backwards from its end: the first
 * 64 KiB, further back only until `history` responses with usage were found, never past the cap.
 * Never throws: a missing, unreadable or foreign file resolves to undefined.
 */
export function readClaudeLatestUsage(request: ReadLatestUsageRequest): LatestUsage | undefined {
  try {
    const path = request.transcriptPath;
    if (typeof path !== 'string' || path.length === 0 || request.signal?.aborted) return undefined;
    if (!statSync(path).isFile()) return undefined;
    const limits = resolveLatestUsageRequest(request);
    const entries: ClaudeEntry[] = []; // newest first
    const responses = new Set<string>();
    let anonymous = 0;
    const tail = readJsonlTail(path, {
      maxBytes: limits.maxBytes,
      chunkBytes: limits.chunkBytes,
      skipLine,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(limits.deadlineAt !== undefined ? { deadlineAt: limits.deadlineAt } : {}),
      visit: (raw) => {
        const parsed = parseClaudeLine(raw);
        if (parsed.kind !== 'entry' || !hasContextUsage(parsed.entry)) return 'continue';
        entries.push(parsed.entry);
        // One response spans several entries: count responses, as `claudeUsageRecords` keys them.
        responses.add(parsed.entry.messageId ?? `#${(anonymous += 1)}`);
        return responses.size >= limits.history ? 'stop' : 'continue';
      },
    });
    return latestUsageOf(claudeUsageRecords(entries.reverse()), limits.history, { bytesRead: tail.bytesRead, fileBytes: tail.fileSize });
  } catch {
    return undefined;
  }
}
