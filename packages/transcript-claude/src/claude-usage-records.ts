import type { TokenUsage } from '@agent-checkpoint/core';
import type { ClaudeAssistantEntry, ClaudeEntry } from './parse-claude-entry.ts';

/**
 * True for an assistant entry whose usage describes the context. Synthetic entries (API errors,
 * interrupts) carry zeroed usage that says nothing about the context.
 */
export function hasContextUsage(entry: ClaudeEntry): entry is ClaudeAssistantEntry & { usage: NonNullable<ClaudeAssistantEntry['usage']> } {
  return entry.kind === 'assistant' && entry.usage !== undefined && entry.model !== '<synthetic>';
}

/**
 * Usage per API response, oldest first (one response spans several entries; the last entry's
 * counters win). The one usage extraction of this package: `readTurn`'s `tokenUsage` /
 * `usageHistory` and `readLatestUsage` both come from here, so their numbers are identical.
 */
export function claudeUsageRecords(entries: readonly ClaudeEntry[]): TokenUsage[] {
  const byMessage = new Map<string, TokenUsage>();
  let anonymous = 0;
  for (const entry of entries) {
    if (!hasContextUsage(entry)) continue;
    const { usage } = entry;
    const record: TokenUsage = {
      contextTokens: usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
      ...(usage.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
      ...(entry.model !== undefined ? { model: entry.model } : {}),
      ...(entry.timestamp !== undefined ? { timestamp: entry.timestamp } : {}),
    };
    const key = entry.messageId ?? `#${(anonymous += 1)}`;
    // Deleting first keeps the Map ordered by the response's latest entry.
    byMessage.delete(key);
    byMessage.set(key, record);
  }
  return [...byMessage.values()];
}
