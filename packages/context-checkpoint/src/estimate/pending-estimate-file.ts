import { readSmallFileSync, toSafeSessionId } from '@agent-checkpoint/core/hot-path';
import { join } from 'node:path';
import { ESTIMATE_BASIS_KINDS, type EstimateBasisKind } from './estimate-basis.ts';
import type { TaskFeatures } from './task-features.ts';
import { taskBandOf, type TaskBand } from './task-band.ts';

// The pending estimate's file, without the estimator: the monitor after every tool call reads the
// current task's size from it (zod-free, core's hot path only).

/** The estimate made at prompt submit, waiting for the turn's end (EST-004). */
export interface PendingEstimate {
  /** ISO time of the prompt submit: where the turn starts in the usage history. */
  readonly at: string;
  readonly features: TaskFeatures;
  readonly estimatedTokens: number;
  /**
   * What was estimated (the prompt alone, the current item, named items, the plan): the turn end learns
   * only from prompt-only estimates (`isLearnableSample`). Absent in records from before it existed.
   */
  readonly basis?: EstimateBasisKind;
  /** Context tokens when the prompt was submitted (the fallback baseline of the actual cost). */
  readonly contextTokensAtSubmit: number;
}

/** Larger than any record the prompt hook writes: a bigger file is not ours. */
export const MAX_PENDING_BYTES = 16 * 1024;

/** `estimates/pending/<safe session id>.json` in the state directory. */
export function pendingEstimatePath(sessionId: string): string {
  return `estimates/pending/${toSafeSessionId(sessionId)}.json`;
}

/** What {@link readPendingTaskBand} found: the band, or nothing (no estimate this turn), and a note on a bad file. */
export interface PendingTaskBand {
  readonly band?: TaskBand;
  readonly diagnostic?: string;
}

/**
 * The size of the current task (seed 004, P1/P4) from the estimate the prompt hook made at this turn's
 * submit, as a share of `windowTokens`: what lets the monitor hand off a large task early (60 % + large
 * → at 70 %) and let a small one finish (80 % + small). No pending estimate (the prompt hook is not
 * installed, or the turn end already closed it) is no band. A bad file is a diagnostic and no band.
 */
export function readPendingTaskBand(stateDir: string, sessionId: string, windowTokens: number): PendingTaskBand {
  const path = join(stateDir, pendingEstimatePath(sessionId));
  let text: string | undefined;
  try {
    text = readSmallFileSync(path);
  } catch (error) {
    return { diagnostic: `pending estimate ${path} is unreadable (${error instanceof Error ? error.message : String(error)}); task size unknown` };
  }
  if (text === undefined) return {};
  if (text.length > MAX_PENDING_BYTES) return { diagnostic: `pending estimate ${path} is larger than ${MAX_PENDING_BYTES} bytes; task size unknown` };
  const pending = parsePendingEstimate(text);
  if (pending === undefined) return { diagnostic: `pending estimate ${path} is not a valid record; task size unknown` };
  if (!(windowTokens > 0)) return {};
  return { band: taskBandOf((pending.estimatedTokens / windowTokens) * 100) };
}

/** A pending estimate file's record, or undefined when it is not one (the file is untrusted). */
export function parsePendingEstimate(text: string): PendingEstimate | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (json === null || typeof json !== 'object') return undefined;
  const p = json as Record<string, unknown>;
  const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1e9;
  if (typeof p.at !== 'string' || !Number.isFinite(Date.parse(p.at)) || !count(p.estimatedTokens) || !count(p.contextTokensAtSubmit)) return undefined;
  const f = p.features as Record<string, unknown> | null | undefined;
  if (f === null || typeof f !== 'object') return undefined;
  const keys = ['promptChars', 'pathMentions', 'bulletItems', 'broadScope', 'narrowScope', 'planOpenItems'] as const;
  if (!keys.every((k) => count(f[k]))) return undefined;
  const basis = ESTIMATE_BASIS_KINDS.find((k) => k === p.basis);
  if (p.basis !== undefined && basis === undefined) return undefined;
  // recordTaskOutcome validates the bounds again with the history's schema.
  return { at: p.at, ...(basis !== undefined ? { basis } : {}), estimatedTokens: p.estimatedTokens, contextTokensAtSubmit: p.contextTokensAtSubmit, features: Object.fromEntries(keys.map((k) => [k, f[k]])) as unknown as TaskFeatures };
}
