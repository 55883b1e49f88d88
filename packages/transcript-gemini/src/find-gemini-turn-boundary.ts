import type { GeminiMessage } from './gemini-record.ts';
import { fallbackRule, primaryRule, type OwnCheckpoints } from './gemini-turn-rules.ts';

/** Where the current turn starts in a reduced message list. */
export interface GeminiTurnBoundary {
  /** Index of the message that opens the turn, or undefined when none qualifies. */
  readonly index?: number;
  /**
   * True when a hint was given but no message matched it and the fallback rule was used instead
   * (the prompt was rewritten by the CLI, or lies beyond the read window).
   */
  readonly hintMissed: boolean;
}

/**
 * Find the turn boundary: the last message accepted by the hint rule when the caller passed the hook
 * payload's prompt, otherwise (or when the hint matches nothing) the last genuine-looking user prompt.
 */
export function findGeminiTurnBoundary(
  messages: readonly GeminiMessage[],
  hintPrompt: string | undefined,
  checkpointPrefix: OwnCheckpoints,
): GeminiTurnBoundary {
  const primary = primaryRule(hintPrompt, checkpointPrefix);
  const index = findLastIndex(messages, primary.isBoundary);
  if (index !== undefined || primary.kind === 'fallback') {
    return { ...(index !== undefined ? { index } : {}), hintMissed: false };
  }
  const fallback = findLastIndex(messages, fallbackRule(checkpointPrefix).isBoundary);
  return { ...(fallback !== undefined ? { index: fallback } : {}), hintMissed: true };
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number | undefined {
  for (let i = items.length - 1; i >= 0; i -= 1) {
    if (test(items[i] as T)) return i;
  }
  return undefined;
}
