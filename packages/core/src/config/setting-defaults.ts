/*
 * Defaults of single settings, defined once where they apply: config-schema.ts quotes them in its
 * descriptions (and so in schema.json and docs/configuration.md), default-config.ts and
 * resolve-config.ts apply them. A leaf module: the schema imports it, so it imports nothing.
 */

/**
 * Loop guard defaults (docs/loop-guard-and-switches.md): one checkpoint per real user turn, and a
 * second one of the same turn (when `maxBlocksPerTurn` allows it) no sooner than 30 s after the first.
 * Every turn is checked, however quick. The one definition: the resolver and routes without a
 * resolved config read it from here.
 */
export const DEFAULT_LOOP_GUARD: { readonly maxBlocksPerTurn: number; readonly minTurnSeconds: number } = {
  maxBlocksPerTurn: 1,
  minTurnSeconds: 30,
};

/** Edit hygiene defaults: flag edits without a prior read; observe changes across 4+ top-level areas. */
export const DEFAULT_HYGIENE: { readonly editWithoutRead: boolean; readonly blastRadius: number } = { editWithoutRead: true, blastRadius: 4 };

/** Time limit of each git call the checkpoint makes (`gitTimeoutMs`). */
export const DEFAULT_GIT_TIMEOUT_MS = 5000;

/** Precedence of a category's required action when the category sets none (lower comes first). */
export const DEFAULT_CATEGORY_PRECEDENCE = 50;

/** Precedence of a follow-up's required action when it sets none: after the categories' by default. */
export const DEFAULT_FOLLOW_UP_PRECEDENCE = 100;
