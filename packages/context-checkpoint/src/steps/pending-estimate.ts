import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, readRegularFileSync, writeFileSafelySync, type TokenUsage } from '@agent-checkpoint/core';
import { MAX_PENDING_BYTES, parsePendingEstimate, pendingEstimatePath, type PendingEstimate } from '../estimate/pending-estimate-file.ts';
import { isLearnableSample } from '../estimate/estimate-basis.ts';
import { actualTurnTokens, recordTaskOutcome } from '../estimate/task-history.ts';
import { recordMetricsEvent } from '../metrics/metrics-events.ts';

export { pendingEstimatePath, type PendingEstimate } from '../estimate/pending-estimate-file.ts';

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
 * metrics log (estimate accuracy in `report`; prompt-only estimates only, see `isLearnableSample`). The pending file is removed either way, so a turn is
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
    pending = parsePendingEstimate(text);
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
    await recordTaskOutcome(where, { at, features: pending.features, estimatedTokens: pending.estimatedTokens, actualTokens: actual, ...(pending.basis !== undefined ? { basis: pending.basis } : {}) });
    // Accuracy is like with like too: an item's or a plan's estimate is not one turn's growth.
    if (isLearnableSample(pending)) await recordMetricsEvent(where, { type: 'estimate', at, estimatedTokens: pending.estimatedTokens, actualTokens: actual });
  } catch (error) {
    return { kind: 'unmeasured', detail: `estimate outcome not recorded: ${errorMessage(error)}` };
  }
  return { kind: 'recorded', estimatedTokens: pending.estimatedTokens, actualTokens: actual };
}
