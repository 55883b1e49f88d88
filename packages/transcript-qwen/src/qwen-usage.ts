import type { TokenUsage } from '@agent-checkpoint/core';

// No zod here: the monitor's bundle after every tool call imports this through `./latest-usage`.

/**
 * The usage of an assistant record's model call: `usageMetadata.promptTokenCount` is the prompt side
 * (cached tokens included), i.e. what occupies the context window; `candidatesTokenCount` the output.
 * `contextWindowSize` is the window Qwen assumed for the model. The one usage extraction of this
 * package: `readTurn` and `readLatestUsage` both use it.
 */
export function usageOf(record: Readonly<Record<string, unknown>>, timestamp: string | undefined): TokenUsage | undefined {
  const usage = record['usageMetadata'];
  if (typeof usage !== 'object' || usage === null) return undefined;
  const prompt = (usage as Record<string, unknown>)['promptTokenCount'];
  const output = (usage as Record<string, unknown>)['candidatesTokenCount'];
  if (!isCount(prompt)) return undefined;
  const window = record['contextWindowSize'];
  const model = record['model'];
  return {
    contextTokens: prompt,
    ...(isCount(output) ? { outputTokens: output } : {}),
    ...(typeof window === 'number' && window > 0 ? { contextWindow: window } : {}),
    ...(typeof model === 'string' ? { model } : {}),
    ...(timestamp !== undefined ? { timestamp } : {}),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
