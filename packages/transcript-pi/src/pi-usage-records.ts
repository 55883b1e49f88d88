import type { TokenUsage } from '@agent-checkpoint/core';
import type { PiMessage } from './parse-pi-entry.ts';

type PiAssistant = Extract<PiMessage, { role: 'assistant' }>;

/**
 * The usage record of one assistant message, the reader's one usage extraction (`readTurn` and
 * `readLatestUsage` both use it). The context is what the request sent: `input + cacheRead +
 * cacheWrite` (pi-ai `Usage`). A message with an empty context (Pi's failure message after an error
 * or an abort carries all zeros) is no record: it measured nothing.
 */
export function piUsageRecord(message: PiAssistant, timestamp: string | undefined): TokenUsage | undefined {
  const usage = message.usage;
  if (usage === undefined) return undefined;
  const contextTokens = usage.input + usage.cacheRead + usage.cacheWrite;
  if (contextTokens <= 0) return undefined;
  return {
    contextTokens,
    outputTokens: usage.output,
    ...(message.model !== undefined ? { model: message.model } : {}),
    ...(timestamp !== undefined ? { timestamp } : {}),
  };
}
