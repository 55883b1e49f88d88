/**
 * Maximum tokens of a context summary (seed 002). A budget between context richness and the context
 * window: summaries are passed between phases and sessions, so they must stay small.
 */
export const MAX_SUMMARY_TOKENS = 500;

/** Result of {@link validateContextSummary}. */
export interface SummaryValidation {
  readonly valid: boolean;
  readonly tokenCount: number;
  readonly limit: number;
  /** `Context summary exceeds 500 token limit (actual: 501 tokens)` when invalid. */
  readonly error?: string;
}

/**
 * Approximate tokens as whitespace-separated words. Not a model tokenizer (no tiktoken): fast,
 * dependency-free and consistent everywhere, which is what a budget check needs. `null`/`undefined`
 * count 0; other non-strings are converted with `String()`.
 */
export function countTokens(text: unknown): number {
  if (text === null || text === undefined) return 0;
  const value = typeof text === 'string' ? text : String(text);
  return value.split(/\s+/).filter(Boolean).length;
}

/** Check a context summary against the token budget (default {@link MAX_SUMMARY_TOKENS}). */
export function validateContextSummary(summary: unknown, maxTokens: number = MAX_SUMMARY_TOKENS): SummaryValidation {
  const tokenCount = countTokens(summary);
  if (tokenCount <= maxTokens) return { valid: true, tokenCount, limit: maxTokens };
  return {
    valid: false,
    tokenCount,
    limit: maxTokens,
    error: `Context summary exceeds ${maxTokens} token limit (actual: ${tokenCount} tokens)`,
  };
}
