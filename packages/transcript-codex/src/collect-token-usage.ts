import type { TokenUsage } from '@agent-checkpoint/core';
import type { CodexRecord } from './codex-record.ts';

const HISTORY_LIMIT = 20;

/** Latest usage and up to the last 20 (`historyLimit`) usage records of the read window, oldest first. */
export interface CollectedUsage {
  readonly latest?: TokenUsage;
  readonly history: readonly TokenUsage[];
}

/**
 * Context-window usage from the read window, one entry per model response.
 *
 * 0.169 writes every model response's usage twice: a `token_usage_record` line as the response
 * ends, and an `event_msg token_count` line (which carries `model_context_window`) after the
 * response's tool calls have run and their output is recorded. So a `token_count` stands for the
 * `token_usage_record` just before it, and replaces it; a `token_usage_record` not yet followed by its
 * `token_count` is the newest response's usage. That is what a PostToolUse hook sees: reading only
 * `token_count` there gives the previous response's usage, one call late (issue 21's acceptance
 * scenarios with the real Codex: the L1 alert came a tool call after the context crossed 70 %).
 * Rollouts with only one of the two (older versions) count each line once. `contextTokens` is
 * `last_token_usage.input_tokens` / `usage.input_tokens` (the prompt of the call, cached tokens
 * included). A record without the window size takes the latest one known before it (a
 * `token_count`'s, else `task_started.model_context_window`); the model comes from `turn_context`.
 */
export function collectTokenUsage(records: readonly CodexRecord[], historyLimit = HISTORY_LIMIT): CollectedUsage {
  let contextWindow: number | undefined;
  let model: string | undefined;
  const history: TokenUsage[] = [];
  // Index in `history` of a token_usage_record whose token_count has not come yet.
  let awaitingCount: number | undefined;
  for (const record of records) {
    if (record.type === 'turn-start' && record.contextWindow !== undefined) contextWindow = record.contextWindow;
    if (record.type === 'turn-context' && record.model !== undefined) model = record.model;
    if (record.type !== 'usage') continue;
    if (record.contextWindow !== undefined) contextWindow = record.contextWindow;
    const usage: TokenUsage = {
      contextTokens: record.contextTokens,
      ...(record.outputTokens !== undefined ? { outputTokens: record.outputTokens } : {}),
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(record.timestamp !== undefined ? { timestamp: record.timestamp } : {}),
    };
    if (record.source === 'token_count' && awaitingCount !== undefined) {
      history[awaitingCount] = usage;
      awaitingCount = undefined;
      continue;
    }
    history.push(usage);
    awaitingCount = record.source === 'token_usage_record' ? history.length - 1 : undefined;
  }
  const recent = history.slice(-Math.max(1, historyLimit));
  const latest = recent.at(-1);
  return { ...(latest ? { latest } : {}), history: recent };
}
