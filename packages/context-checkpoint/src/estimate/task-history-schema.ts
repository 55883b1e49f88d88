import { z } from 'zod';
import { ESTIMATE_BASIS_KINDS, type EstimateBasisKind } from './estimate-basis.ts';
import { MAX_PLAN_ITEMS } from './parse-plan-items.ts';
import { MAX_BULLET_ITEMS, MAX_PATH_MENTIONS, MAX_PROMPT_CHARS } from './task-features.ts';

// Loaded with `import()` only when the history is read or written: zod stays off the package's
// static import path (the hook loads the package on every turn end).

const count = (max: number) => z.number().int().nonnegative().max(max);
const tokens = z.number().int().nonnegative().max(1e9);

/** One past turn of this project: its features, what was estimated and what it actually used. */
export const TaskHistorySampleSchema = z.object({
  at: z.string().max(40).refine((s) => Number.isFinite(Date.parse(s)), 'not an ISO-8601 time'),
  features: z.object({
    promptChars: count(MAX_PROMPT_CHARS),
    pathMentions: count(MAX_PATH_MENTIONS),
    bulletItems: count(MAX_BULLET_ITEMS),
    broadScope: count(100),
    narrowScope: count(100),
    planOpenItems: count(MAX_PLAN_ITEMS),
  }),
  estimatedTokens: tokens,
  actualTokens: tokens,
  /** What was estimated; only `prompt` samples teach the estimator. Absent in samples from before it was recorded. */
  basis: z.enum(ESTIMATE_BASIS_KINDS as [EstimateBasisKind, ...EstimateBasisKind[]]).optional(),
});

export type TaskHistorySample = z.infer<typeof TaskHistorySampleSchema>;
