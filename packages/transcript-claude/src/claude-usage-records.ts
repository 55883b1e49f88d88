import type { TokenUsage } from '@agent-checkpoint/core';
import type { ClaudeAssistantEntry, ClaudeEntry } from './parse-claude-entry.ts';
import type { ClaudeUsageLine } from './parse-claude-usage.ts';

/**
 * True for an assistant entry whose usage describes the context. Synthetic entries (API errors,
 * interrupts) carry zeroed usage that says nothing about the context.
 */
export function hasContextUsage(entry: ClaudeEntry): entry is ClaudeAssistantEntry & { usage: NonNullable<ClaudeAssistantEntry['usage']> } {
  return entry.kind === 'assistant' && entry.usage !== undefined && entry.model !== '<synthetic>';
}

/** The usage line of an entry (what `parseClaudeUsageLine` reads straight from the raw line). */
export function usageLineOf(entry: ClaudeEntry): ClaudeUsageLine | undefined {
  if (!hasContextUsage(entry)) return undefined;
  return {
    ...(entry.messageId !== undefined ? { messageId: entry.messageId } : {}),
    ...(entry.model !== undefined ? { model: entry.model } : {}),
    ...(entry.timestamp !== undefined ? { timestamp: entry.timestamp } : {}),
    usage: entry.usage,
  };
}

/**
 * Usage per API response, oldest first (one response spans several entries; the last entry's
 * counters win). The one usage extraction of this package: `readTurn`'s `tokenUsage` /
 * `usageHistory` (from parsed entries) and `readLatestUsage` (from usage lines) both come from here,
 * so their numbers are identical.
 */
export function claudeUsageRecords(entries: readonly ClaudeEntry[]): TokenUsage[] {
  return usageLineRecords(entries.map(usageLineOf).filter((line) => line !== undefined));
}

/** {@link claudeUsageRecords} over usage lines, oldest first. */
export function usageLineRecords(lines: readonly ClaudeUsageLine[]): TokenUsage[] {
  const byMessage = new Map<string, TokenUsage>();
  let anonymous = 0;
  for (const line of lines) {
    const { usage } = line;
    const record: TokenUsage = {
      contextTokens: usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
      ...(usage.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
      ...(line.model !== undefined ? { model: line.model } : {}),
      ...(line.timestamp !== undefined ? { timestamp: line.timestamp } : {}),
    };
    const key = line.messageId ?? `#${(anonymous += 1)}`;
    // Deleting first keeps the Map ordered by the response's latest entry.
    byMessage.delete(key);
    byMessage.set(key, record);
  }
  return [...byMessage.values()];
}
