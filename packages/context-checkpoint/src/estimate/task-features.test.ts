import { describe, expect, it } from 'vitest';
import { extractTaskFeatures, MAX_PATH_MENTIONS } from './task-features.ts';

describe('extractTaskFeatures', () => {
  it('a small fix: one path, narrow wording', () => {
    expect(extractTaskFeatures('Fix the typo in README.md ("recieve" → "receive").')).toEqual({
      promptChars: 50,
      pathMentions: 1,
      bulletItems: 0,
      broadScope: 0,
      narrowScope: 1,
      planOpenItems: 0,
    });
  });

  it('a broad task: paths, list items and scope words; versions and e.g. are not paths', () => {
    const prompt = [
      'Refactor all API handlers in src/api/ to use the new AppError type from src/errors/app-error.ts,',
      'e.g. the ones in `src/api/users.ts`. Migrate every caller across the codebase; bump zod to 4.6.7.',
      '',
      '- keep the HTTP status codes',
      '- update tests in test/api/',
      '1. then run pnpm test',
    ].join('\n');
    const f = extractTaskFeatures(prompt);
    expect(f.pathMentions).toBe(4); // src/api/, src/errors/app-error.ts, src/api/users.ts, test/api/
    expect(f.bulletItems).toBe(3);
    // refactor, all, migrate, every, across, codebase
    expect(f.broadScope).toBe(6);
    expect(f.narrowScope).toBe(1); // bump
  });

  it('bounds the counts of a hostile prompt', () => {
    const prompt = Array.from({ length: 500 }, (_, i) => `- touch src/f${i}.ts`).join('\n');
    const f = extractTaskFeatures(prompt);
    expect(f.pathMentions).toBe(MAX_PATH_MENTIONS);
    expect(f.bulletItems).toBe(100);
  });

  it('counts the plan open items when a plan is given', () => {
    expect(extractTaskFeatures('Continue the plan', '- [x] a\n- [ ] b\n- [ ] c\n').planOpenItems).toBe(2);
  });
});
