import type { TokenUsage } from '@agent-checkpoint/core';
import { isRecord, type GeminiMessage } from './gemini-record.ts';

/**
 * True for a `gemini` message that records the usage of its model call (`tokens.input`). The final
 * copy of a message decides: the CLI re-appends a message with its tokens once the call returns.
 */
export function hasGeminiUsage(message: GeminiMessage): boolean {
  if (message.type !== 'gemini') return false;
  const tokens = message.raw['tokens'];
  return isRecord(tokens) && isCount(tokens['input']);
}

/**
 * Token usage of `gemini` messages, oldest first: `tokens.input` is the prompt side of the call
 * (`promptTokenCount`, which already includes cached tokens), i.e. what occupies the context window;
 * `tokens.output` is `candidatesTokenCount` (thoughts are counted apart and not kept in history).
 * The one usage extraction of this package: `readTurn` and `readLatestUsage` both use it.
 */
export function geminiUsageRecords(messages: readonly GeminiMessage[]): TokenUsage[] {
  const history: TokenUsage[] = [];
  for (const message of messages) {
    if (!hasGeminiUsage(message)) continue;
    const tokens = message.raw['tokens'] as Record<string, unknown>;
    const model = message.raw['model'];
    const timestamp = message.raw['timestamp'];
    history.push({
      contextTokens: tokens['input'] as number,
      ...(isCount(tokens['output']) ? { outputTokens: tokens['output'] } : {}),
      ...(typeof model === 'string' ? { model } : {}),
      ...(typeof timestamp === 'string' ? { timestamp } : {}),
    });
  }
  return history;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
