import type { ContextLevel, TokenUsage } from '@agent-checkpoint/core';
import { DEFAULT_CONTEXT_THRESHOLDS, type ResolvedContextConfig } from '../config/context-config.ts';
import { lookupModelWindow, type ModelWindowEntry } from './model-context-windows.ts';

export type { ContextLevel } from '@agent-checkpoint/core';

/** Where the context window size came from. */
export type WindowSource = 'transcript' | 'model-table' | 'config' | 'unknown';

/** Threshold percentages, `l1 < l2 < l3`. */
export type ContextThresholds = ResolvedContextConfig['thresholds'];

/** A context reading whose window is known, so it has a percentage and a level. */
export interface KnownContextReading {
  readonly windowSource: Exclude<WindowSource, 'unknown'>;
  /** Tokens in the context window at the latest model call. */
  readonly contextTokens: number;
  readonly contextWindow: number;
  /** Exact percentage (may exceed 100 when the window is underestimated). */
  readonly percent: number;
  /**
   * The percentage shown to people: rounded **down**, so the shown number never reaches a threshold
   * the level has not reached (84.96 % shows as 84 and is L1), and at most 100.
   */
  readonly displayPercent: number;
  readonly level: ContextLevel;
  /** Tokens left before the window is full (0 when over). */
  readonly remainingTokens: number;
  readonly model?: string;
  /** ISO-8601 time of the usage record. */
  readonly timestamp?: string;
  /** For `model-table`: the entry used, and whether its value is an assumption or the extended window. */
  readonly table?: { readonly family: string; readonly certain: boolean; readonly extended: boolean };
}

/** A reading without a known window: tokens only, no percentage and no level. */
export interface UnknownContextReading {
  readonly windowSource: 'unknown';
  readonly contextTokens: number;
  readonly model?: string;
  readonly timestamp?: string;
  readonly level?: undefined;
  readonly percent?: undefined;
}

export type ContextReading = KnownContextReading | UnknownContextReading;

/** Options of {@link readContextLevel}. */
export interface ReadContextLevelOptions {
  /** `context.windowTokens`: wins over the transcript and the table. */
  readonly windowTokens?: number | undefined;
  readonly thresholds?: ContextThresholds;
  /** Replaces the built-in model table (tests). */
  readonly modelTable?: readonly ModelWindowEntry[];
}

/**
 * The most tokens a context window can plausibly hold: 50 times the largest window any model has
 * (2 million). A transcript is untrusted input; a record above this is corrupt or forged, not a
 * context that is "1e+297 % full".
 */
export const MAX_PLAUSIBLE_CONTEXT_TOKENS = 100_000_000;

/**
 * Why a usage record cannot be a context reading, or undefined when it can: its token count (or the
 * window it records) must be a finite, non-negative number no larger than
 * {@link MAX_PLAUSIBLE_CONTEXT_TOKENS}. {@link readContextLevel} treats such a record as no usage
 * (no level, no action); callers with a diagnostic channel name the reason once.
 */
export function implausibleUsage(usage: TokenUsage): string | undefined {
  const tokens = usage.contextTokens;
  if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0 || tokens > MAX_PLAUSIBLE_CONTEXT_TOKENS) {
    return `the transcript's token usage (${describeNumber(tokens)} context tokens) is not a plausible count: treated as unknown`;
  }
  const window = usage.contextWindow;
  if (window !== undefined && (typeof window !== 'number' || !Number.isFinite(window) || window < 0 || window > MAX_PLAUSIBLE_CONTEXT_TOKENS)) {
    return `the transcript's context window (${describeNumber(window)} tokens) is not a plausible size: treated as unknown`;
  }
  return undefined;
}

/** A number for a diagnostic: short, and never the text of a non-number. */
function describeNumber(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value;
}

/**
 * Compute the context level from the latest usage record. Pure and deterministic.
 *
 * The window comes from, in order: the configuration (`context.windowTokens`), the record itself
 * (Codex records `model_context_window`), the built-in model table; otherwise the reading is
 * `unknown` and has no level (a wrong guess would be worse than no alert). Returns undefined when
 * there is no usage at all (no transcript, or a transcript without usage records).
 *
 * Levels compare exactly (see {@link levelOf}): at or above `l3` is L3, `l2` L2, `l1` L1, else L0.
 */
export function readContextLevel(usage: TokenUsage | undefined, options: ReadContextLevelOptions = {}): ContextReading | undefined {
  if (!usage || implausibleUsage(usage) !== undefined) return undefined;
  const { contextTokens } = usage;
  const meta = {
    ...(usage.model !== undefined ? { model: usage.model } : {}),
    ...(usage.timestamp !== undefined ? { timestamp: usage.timestamp } : {}),
  };
  const thresholds = options.thresholds ?? DEFAULT_CONTEXT_THRESHOLDS;

  if (options.windowTokens !== undefined && Number.isFinite(options.windowTokens) && options.windowTokens > 0) {
    return known('config', contextTokens, options.windowTokens, thresholds, meta);
  }
  if (usage.contextWindow !== undefined && usage.contextWindow > 0) {
    return known('transcript', contextTokens, usage.contextWindow, thresholds, meta);
  }
  const match = lookupModelWindow(usage.model, contextTokens, options.modelTable);
  if (match) {
    return {
      ...known('model-table', contextTokens, match.window, thresholds, meta),
      table: { family: match.entry.family, certain: match.entry.certain, extended: match.extended },
    };
  }
  return { windowSource: 'unknown', contextTokens, ...meta };
}

/**
 * The level of `contextTokens` in `contextWindow`. Compared as `tokens × 100 ≥ threshold × window`
 * rather than through a percentage, so boundaries are exact (170,000 of 200,000 is L2 at 85 %, where
 * `170000 / 200000 * 100` would give 84.99999999999999).
 */
export function levelOf(contextTokens: number, contextWindow: number, thresholds: ContextThresholds = DEFAULT_CONTEXT_THRESHOLDS): ContextLevel {
  const scaled = contextTokens * 100;
  if (scaled >= thresholds.l3 * contextWindow) return 'L3';
  if (scaled >= thresholds.l2 * contextWindow) return 'L2';
  if (scaled >= thresholds.l1 * contextWindow) return 'L1';
  return 'L0';
}

/** Numeric order of levels, for comparisons such as "at or above the handoff level". */
export function levelRank(level: ContextLevel): number {
  switch (level) {
    case 'L0':
      return 0;
    case 'L1':
      return 1;
    case 'L2':
      return 2;
    case 'L3':
      return 3;
  }
}

function known(
  windowSource: KnownContextReading['windowSource'],
  contextTokens: number,
  contextWindow: number,
  thresholds: ContextThresholds,
  meta: { model?: string; timestamp?: string },
): KnownContextReading {
  // Dividing the scaled integer is exact whenever the result is an integer (unlike `/ window * 100`).
  const percent = (contextTokens * 100) / contextWindow;
  return {
    windowSource,
    contextTokens,
    contextWindow,
    percent,
    // A share is 0–100 %: over the window (a window set too small) shows as 100, the level says L3.
    displayPercent: Math.min(100, Math.floor(percent)),
    level: levelOf(contextTokens, contextWindow, thresholds),
    remainingTokens: Math.max(0, contextWindow - contextTokens),
    ...meta,
  };
}
