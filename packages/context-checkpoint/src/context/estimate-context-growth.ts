import type { ContextLevel, TokenUsage } from '@agent-checkpoint/core';
import { DEFAULT_CONTEXT_THRESHOLDS } from '../config/context-config.ts';
import type { ContextThresholds } from './read-context-level.ts';

/**
 * A fall of more than this fraction between consecutive records means the context was compacted or
 * cleared: growth is measured only after the last such fall.
 */
export const COMPACTION_DROP_FRACTION = 0.1;

/** Options of {@link estimateContextGrowth}. */
export interface EstimateContextGrowthOptions {
  /** The window, when known (needed for the "until" estimates). */
  readonly contextWindow?: number | undefined;
  readonly thresholds?: ContextThresholds;
  /**
   * ISO-8601 start of the current turn (`TurnTimeline.startedAt`). Enables the per-turn rate: the
   * growth from the last record before it (or the turn's first record) to the latest record.
   */
  readonly turnStartedAt?: string | undefined;
  /** Which level the "until" estimate aims at (default L2, the handoff level). */
  readonly target?: Exclude<ContextLevel, 'L0'>;
}

/** How far the context is from a level, in tokens and at the measured rates. */
export interface UntilLevel {
  readonly level: Exclude<ContextLevel, 'L0'>;
  /** Tokens left before the level; 0 when already there. */
  readonly tokens: number;
  /** Model calls at the per-call rate (rounded up), when the rate is positive. */
  readonly calls?: number;
  /** Minutes at the per-minute rate (one decimal), when the rate is positive. */
  readonly minutes?: number;
  /** Turns at this turn's pace (rounded up), when a turn start was given and the turn grew. */
  readonly turns?: number;
}

/** Growth of the context over the usage history. All rates are net growth (never negative). */
export interface ContextGrowth {
  /** Records measured: those after the last compaction (at least 1 when there is any history). */
  readonly samples: number;
  /** True when a compaction (a fall of more than 10 %) was seen and earlier records were skipped. */
  readonly compacted: boolean;
  readonly latestTokens?: number;
  /** Mean growth per model call over the measured records (needs 2 samples). */
  readonly tokensPerCall?: number;
  /** Growth per minute between the first and last timestamped measured records (needs a time span). */
  readonly tokensPerMinute?: number;
  /** Growth during the current turn (needs `turnStartedAt`). */
  readonly tokensThisTurn?: number;
  /** Distance to the target level (needs the window). */
  readonly until?: UntilLevel;
}

/**
 * Estimate how fast the context grows, from `usageHistory` (oldest first). Pure and deterministic.
 *
 * One usage record is one model call, so the natural unit is "per call"; `TokenUsage` carries no turn
 * boundaries, so the per-turn rate needs the turn's start time and is this turn's pace (one sample,
 * not an average). Records after the last fall of more than 10 % are measured (a compaction resets
 * the context). Small falls inside that run are kept: the net growth absorbs them.
 */
export function estimateContextGrowth(history: readonly TokenUsage[] | undefined, options: EstimateContextGrowthOptions = {}): ContextGrowth {
  const valid = (history ?? []).filter((u) => Number.isFinite(u.contextTokens) && u.contextTokens >= 0);
  if (valid.length === 0) return { samples: 0, compacted: false };
  let start = 0;
  for (let i = 1; i < valid.length; i += 1) {
    const prev = (valid[i - 1] as TokenUsage).contextTokens;
    const cur = (valid[i] as TokenUsage).contextTokens;
    if (cur < prev * (1 - COMPACTION_DROP_FRACTION)) start = i;
  }
  const run = valid.slice(start);
  const first = run[0] as TokenUsage;
  const last = run[run.length - 1] as TokenUsage;
  const net = Math.max(0, last.contextTokens - first.contextTokens);

  const tokensPerCall = run.length >= 2 ? net / (run.length - 1) : undefined;

  let tokensPerMinute: number | undefined;
  const timed = run.filter((u) => u.timestamp !== undefined && Number.isFinite(Date.parse(u.timestamp)));
  if (timed.length >= 2) {
    const a = timed[0] as TokenUsage;
    const b = timed[timed.length - 1] as TokenUsage;
    const minutes = (Date.parse(b.timestamp as string) - Date.parse(a.timestamp as string)) / 60_000;
    if (minutes > 0) tokensPerMinute = Math.max(0, b.contextTokens - a.contextTokens) / minutes;
  }

  let tokensThisTurn: number | undefined;
  const turnStart = options.turnStartedAt === undefined ? Number.NaN : Date.parse(options.turnStartedAt);
  if (Number.isFinite(turnStart)) {
    // The baseline is the last record before the turn (the context the prompt arrived into), else the
    // turn's own first record. Records without a timestamp cannot be placed and are skipped.
    let baseline: TokenUsage | undefined;
    let inTurn = false;
    for (const u of run) {
      const t = u.timestamp === undefined ? Number.NaN : Date.parse(u.timestamp);
      if (!Number.isFinite(t)) continue;
      if (t < turnStart) baseline = u;
      else {
        baseline ??= u;
        inTurn = true;
      }
    }
    if (inTurn && baseline) tokensThisTurn = Math.max(0, last.contextTokens - baseline.contextTokens);
  }

  const growth: ContextGrowth = {
    samples: run.length,
    compacted: start > 0,
    latestTokens: last.contextTokens,
    ...(tokensPerCall !== undefined ? { tokensPerCall } : {}),
    ...(tokensPerMinute !== undefined ? { tokensPerMinute } : {}),
    ...(tokensThisTurn !== undefined ? { tokensThisTurn } : {}),
  };
  const window = options.contextWindow;
  if (window === undefined || !(window > 0)) return growth;

  const level = options.target ?? 'L2';
  const thresholds = options.thresholds ?? DEFAULT_CONTEXT_THRESHOLDS;
  const percent = level === 'L1' ? thresholds.l1 : level === 'L2' ? thresholds.l2 : thresholds.l3;
  const tokens = Math.max(0, Math.ceil((percent * window) / 100) - last.contextTokens);
  const until: UntilLevel = {
    level,
    tokens,
    ...(tokensPerCall !== undefined && tokensPerCall > 0 ? { calls: Math.ceil(tokens / tokensPerCall) } : {}),
    ...(tokensPerMinute !== undefined && tokensPerMinute > 0 ? { minutes: Math.round((tokens / tokensPerMinute) * 10) / 10 } : {}),
    ...(tokensThisTurn !== undefined && tokensThisTurn > 0 ? { turns: Math.ceil(tokens / tokensThisTurn) } : {}),
  };
  return { ...growth, until };
}
