import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ITEM_CHARS, MAX_PLAN_ITEMS, openPlanItems, parsePlanItems } from './parse-plan-items.ts';

const PLAN = readFileSync(join(import.meta.dirname, '__fixtures__/oauth-plan.md'), 'utf8');

describe('parsePlanItems', () => {
  it('reads checkboxes (-, *, numbered; x and X) and TODO lines, and skips fenced examples', () => {
    const items = parsePlanItems(PLAN);
    expect(items.map((i) => [i.done, i.kind, i.text])).toEqual([
      [true, 'checkbox', 'Add the `oauth_accounts` table migration (`db/migrations/0042_oauth.sql`)'],
      [true, 'checkbox', 'Provider config in `src/config/auth.ts`'],
      [false, 'checkbox', 'Implement the OAuth callback handler in `src/auth/oauth.ts`'],
      [false, 'checkbox', 'Exchange the code for tokens and fetch the profile (GitHub, Google)'],
      [false, 'checkbox', 'Link or create the user; issue a session (`src/auth/session.ts`)'],
      [false, 'checkbox', 'Error page for denied consent (`src/pages/auth-error.tsx`)'],
      [false, 'checkbox', 'Tests: callback happy path, state mismatch, denied consent'],
      [true, 'checkbox', 'Feature flag wiring'],
      [false, 'todo', 'refactor all login routes to use the new session helper'],
      [false, 'todo', 'docs/auth.md: document the provider setup'],
    ]);
    expect(items[2]?.line).toBe(PLAN.split('\n').indexOf('- [ ] Implement the OAuth callback handler in `src/auth/oauth.ts`') + 1);
    expect(openPlanItems(PLAN)).toHaveLength(7);
  });

  it('bounds untrusted plans: item count and item length', () => {
    const huge = Array.from({ length: MAX_PLAN_ITEMS + 50 }, (_, i) => `- [ ] item ${i} ${'w'.repeat(i === 0 ? 5000 : 1)}`).join('\n');
    const items = parsePlanItems(huge);
    expect(items).toHaveLength(MAX_PLAN_ITEMS);
    expect(items[0]?.text.length).toBe(MAX_ITEM_CHARS);
  });

  it('hostile lines cost linear time (a regex with competing quantifiers took over a minute here)', () => {
    const block = [`TODO${' '.repeat(100_000)}`, `- [ ]${' '.repeat(100_000)}`, `1. TODO:${'\t '.repeat(50_000)}x`, `- [x] ${'y '.repeat(50_000)}`, `1. TODO:${'\t '.repeat(100)}x`];
    const hostile = [...block, ...block].join('\n');
    const started = performance.now();
    const items = parsePlanItems(hostile);
    // A hang bound, not a speed target (the backtracking regex took over a minute; linear takes milliseconds).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(items.map((i) => [i.kind, i.done, i.text.length])).toEqual(
      Array.from({ length: 2 }, () => [
        // The long TODO line is cut at MAX_LINE_CHARS, before its "x": no text, no item.
        ['checkbox', true, MAX_ITEM_CHARS],
        ['todo', false, 1],
      ]).flat(),
    );
  });

  it('CRLF plans parse the same', () => {
    expect(parsePlanItems(PLAN.replaceAll('\n', '\r\n'))).toEqual(parsePlanItems(PLAN));
  });
});
