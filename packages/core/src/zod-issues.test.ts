import * as z from 'zod';
import * as zm from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { describeIssues } from './zod-issues.ts';

describe('describeIssues', () => {
  it('puts the first three issues on one line, each with its path ((root) for the value itself)', () => {
    const schema = z.object({ a: z.string(), b: z.object({ c: z.number() }), d: z.boolean(), e: z.boolean() });
    const checked = schema.safeParse({ a: 1, b: { c: 'x' } });
    expect(checked.success).toBe(false);
    if (checked.success) return;
    expect(checked.error.message).toContain('\n');
    expect(describeIssues(checked.error)).toBe('a: Invalid input: expected string, received number; b.c: Invalid input: expected number, received string; d: Invalid input: expected boolean, received undefined');
    const root = z.string().safeParse(3);
    expect(root.success ? '' : describeIssues(root.error)).toBe('(root): Invalid input: expected string, received number');
  });

  it('describes zod/mini errors the same way', () => {
    const checked = zm.safeParse(zm.object({ a: zm.string() }), { a: null });
    expect(checked.success ? '' : describeIssues(checked.error)).toBe('a: Invalid input: expected string, received null');
  });

  it('keeps a custom message with line breaks on one line', () => {
    const checked = z.string().refine(() => false, 'first line\nsecond line').safeParse('x');
    expect(checked.success ? '' : describeIssues(checked.error)).toBe('(root): first line second line');
  });
});
