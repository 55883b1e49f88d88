import type { TokenUsage } from '@agent-checkpoint/core';
import type { CodexRecord, UsageRecord } from './codex-record.ts';

const HISTORY_LIMIT = 20;

/** Latest usage and up to the last 20 (`historyLimit`) usage records of the read window, oldest first. */
export interface CollectedUsage {
  readonly latest?: TokenUsage;
  readonly history: readonly TokenUsage[];
}

/**
 * Context-window usage from the read window.
 *
 * 0.169 writes every model response's usage twice: a `token_usage_record` line and an
 * `event_msg token_count` line. `token_count` is used when present (it carries
 * `model_context_window`); `token_usage_record` only when the window has no `token_count` at all, so
 * the history never counts one response twice. `contextTokens` is `last_token_usage.input_tokens`
 * (the prompt of the latest call, cached tokens included). When a record lacks the window size, the
 * latest `task_started.model_context_window` before it is used; the model comes from `turn_context`.
 */
export function collectTokenUsage(records: readonly CodexRecord[], historyLimit = HISTORY_LIMIT): CollectedUsage {
  const hasTokenCount = records.some((record) => record.type === 'usage' && record.source === 'token_count');
  const wanted: UsageRecord['source'] = hasTokenCount ? 'token_count' : 'token_usage_record';
  let contextWindow: number | undefined;
  let model: string | undefined;
  const history: TokenUsage[] = [];
  for (const record of records) {
    if (record.type === 'turn-start' && record.contextWindow !== undefined) contextWindow = record.contextWindow;
    if (record.type === 'turn-context' && record.model !== undefined) model = record.model;
    if (record.type !== 'usage' || record.source !== wanted) continue;
    const window = record.contextWindow ?? contextWindow;
    history.push({
      contextTokens: record.contextTokens,
      ...(record.outputTokens !== undefined ? { outputTokens: record.outputTokens } : {}),
      ...(window !== undefined ? { contextWindow: window } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(record.timestamp !== undefined ? { timestamp: record.timestamp } : {}),
    });
  }
  const recent = history.slice(-Math.max(1, historyLimit));
  const latest = recent.at(-1);
  return { ...(latest ? { latest } : {}), history: recent };
}
