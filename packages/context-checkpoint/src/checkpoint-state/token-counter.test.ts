import { describe, expect, it } from 'vitest';
import { countTokens, MAX_SUMMARY_TOKENS, validateContextSummary } from './token-counter.ts';

describe('countTokens (seed 002)', () => {
  it('returns the word count', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('  multiple   spaces  ')).toBe(2);
    expect(countTokens('tabs\tand\nnew\r\nlines')).toBe(4);
  });

  it('counts 0 for empty, null and undefined, and coerces other values', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('   ')).toBe(0);
    expect(countTokens(null)).toBe(0);
    expect(countTokens(undefined)).toBe(0);
    expect(countTokens(12345)).toBe(1);
    expect(countTokens(['a', 'b'])).toBe(1); // "a,b"
  });
});

describe('validateContextSummary (seed 002)', () => {
  it('passes for at most 500 tokens', () => {
    expect(validateContextSummary('short summary')).toEqual({ valid: true, tokenCount: 2, limit: 500 });
    expect(validateContextSummary(Array(500).fill('word').join(' ')).valid).toBe(true);
    expect(MAX_SUMMARY_TOKENS).toBe(500);
  });

  it('fails for more than 500 tokens with the exact message', () => {
    const result = validateContextSummary(Array(501).fill('word').join(' '));
    expect(result).toEqual({
      valid: false,
      tokenCount: 501,
      limit: 500,
      error: 'Context summary exceeds 500 token limit (actual: 501 tokens)',
    });
  });

  it('takes another limit', () => {
    expect(validateContextSummary('a b c', 2)).toMatchObject({ valid: false, limit: 2, error: 'Context summary exceeds 2 token limit (actual: 3 tokens)' });
    expect(validateContextSummary(undefined, 0)).toEqual({ valid: true, tokenCount: 0, limit: 0 });
  });
});
