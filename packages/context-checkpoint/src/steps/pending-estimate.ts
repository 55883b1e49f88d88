import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, readRegularFileSync, toSafeSessionId, writeFileSafelySync, type TokenUsage } from '@agent-checkpoint/core';
import type { TaskFeatures } from '../estimate/task-features.ts';
import { actualTurnTokens, recordTaskOutcome } from '../estimate/task-history.ts';
import { recordMetricsEvent } from '../metrics/metrics-events.ts';

/** The estimate made at prompt submit, waiting for the turn's end (EST-004). */
export interface PendingEstimate {
  /** ISO time of the prompt submit: where the turn starts in the usage history. */
  readonly at: string;
  readonly features: TaskFeatures;
  readonly estimatedTokens: number;
  /** Context tokens when the prompt was submitted (the fallback baseline of the actual cost). */
  readonly contextTokensAtSubmit: number;
}

const MAX_PENDING_BYTES = 16 * 1024;

/** `estimates/pending/<safe session id>.json` in the state directory. */
export function pendingEstimatePath(sessionId: string): string {
  return `estimates/pending/${toSafeSessionId(sessionId)}.json`;
}

/** Remember the session's newest estimate (replacing an older one: one prompt, one turn). Throws on I/O errors. */
export function recordPendingEstimate(stateDir: string, sessionId: string, pending: PendingEstimate): void {
  writeFileSafelySync(stateDir, pendingEstimatePath(sessionId), `${JSON.stringify(pending)}\n`, { rootKind: 'private', mode: 0o600 });
}

/** What {@link closePendingEstimate} did. */
export type ClosePendingEstimateResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'recorded'; readonly estimatedTokens: number; readonly actualTokens: number }
  | { readonly kind: 'unmeasured'; readonly detail: string };

/**
 * At the turn's end (EST-004): take the session's pending estimate, measure what the turn actually
 * used (the usage records around the prompt, {@link actualTurnTokens}, when they hold one from
 * before it; else the newest record minus the context measured at submit) and record both in the task history (the estimator learns from it) and the
 * metrics log (estimate accuracy in `report`). The pending file is removed either way, so a turn is
 * recorded once. The file is untrusted (the state directory is handed to the agent): a bad one is
 * dropped. Never throws.
 */
export async function closePendingEstimate(input: {
  readonly stateDir: string;
  readonly projectRoot: string;
  readonly sessionId: string;
  readonly usageHistory: readonly TokenUsage[] | undefined;
  readonly latest: TokenUsage | undefined;
  readonly now: Date;
}): Promise<ClosePendingEstimateResult> {
  const path = join(input.stateDir, pendingEstimatePath(input.sessionId));
  let pending: PendingEstimate | undefined;
  try {
    const text = readRegularFileSync(path, MAX_PENDING_BYTES)?.text;
    if (text === undefined) return { kind: 'none' };
    unlinkSync(path);
    pending = parsePending(text);
  } catch (error) {
    return { kind: 'unmeasured', detail: `pending estimate: ${errorMessage(error)}` };
  }
  if (pending === undefined) return { kind: 'unmeasured', detail: 'pending estimate: not a valid record' };
  // The turn's records only (a timeline holds no record from before the turn): the growth since the
  // context measured at submit. With a record before the turn the history places the turn itself.
  const start = Date.parse(pending.at);
  const placed = (input.usageHistory ?? []).some((u) => u.timestamp !== undefined && Date.parse(u.timestamp) < start);
  const fromHistory = placed ? actualTurnTokens(input.usageHistory, pending.at) : undefined;
  const latest = input.latest?.contextTokens;
  const actual = fromHistory ?? (latest !== undefined && latest >= pending.contextTokensAtSubmit ? latest - pending.contextTokensAtSubmit : undefined);
  if (actual === undefined) return { kind: 'unmeasured', detail: 'the usage records do not place the turn' };
  const at = input.now.toISOString();
  const where = { stateDir: input.stateDir, projectRoot: input.projectRoot };
  try {
    await recordTaskOutcome(where, { at, features: pending.features, estimatedTokens: pending.estimatedTokens, actualTokens: actual });
    await recordMetricsEvent(where, { type: 'estimate', at, estimatedTokens: pending.estimatedTokens, actualTokens: actual });
  } catch (error) {
    return { kind: 'unmeasured', detail: `estimate outcome not recorded: ${errorMessage(error)}` };
  }
  return { kind: 'recorded', estimatedTokens: pending.estimatedTokens, actualTokens: actual };
}

function parsePending(text: string): PendingEstimate | undefined {
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
  // recordTaskOutcome validates the bounds again with the history's schema.
  return { at: p.at, estimatedTokens: p.estimatedTokens, contextTokensAtSubmit: p.contextTokensAtSubmit, features: Object.fromEntries(keys.map((k) => [k, f[k]])) as unknown as TaskFeatures };
}
