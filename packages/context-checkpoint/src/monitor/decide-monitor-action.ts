import type { KnownContextReading } from '../context/read-context-level.ts';
import { forecastNextLevel } from './forecast-next-level.ts';
import { monitorSeverity, type DecideMonitorActionInput, type MonitorAction, type MonitorLevel, type MonitorReason } from './monitor-action.ts';
import { resolveMonitorConfig, type MonitorConfig } from './monitor-config.ts';
import { renderMonitorAlert } from './render-monitor-alert.ts';

/** One rule's verdict before the once-per-level and deferral checks. */
type Candidate =
  | { readonly kind: 'warn'; readonly reason: MonitorReason }
  | { readonly kind: 'handoff'; readonly reason: MonitorReason; readonly timing: 'after-step' | 'after-task' }
  | { readonly kind: 'emergency'; readonly reason: MonitorReason };

/**
 * Decide what the monitor does after a tool call (MON-001..004, RLP-002; seed 004 Principle 1).
 * Pure and deterministic.
 *
 * Every rule is a threshold on the reading, and the most severe verdict wins (ties: the first rule
 * listed), so the severity never falls as the context grows with everything else fixed:
 *
 * | rule | condition | action |
 * | --- | --- | --- |
 * | threshold | ≥ L3 / ≥ L2 / ≥ L1 | emergency / handoff after the step / warn |
 * | P1 emergency | ≥ 90 % | emergency |
 * | P1 large task | `large` and ≥ 70 % / ≥ 60 % | handoff after the step / warn |
 * | P1 small task | `small` and ≥ 80 % | handoff after the task |
 * | trajectory | ≥ L2 and the next call reaches L3 / ≥ L1 and it reaches L2 | emergency / handoff |
 *
 * Then, once per level: an action whose level is at or below the highest level already acted on is
 * `none` (`already-announced`); a deferred one (`upTo`) is `none` (`deferred`), never an emergency.
 * No usage or an unknown window is `none`: without a window there is no percentage to act on.
 */
export function decideMonitorAction(input: DecideMonitorActionInput): MonitorAction {
  const { reading } = input;
  if (!reading) return { kind: 'none', reason: 'no-usage' };
  if (reading.windowSource === 'unknown') return { kind: 'none', reason: 'unknown-window', reading };
  // Resolved every time (a few property reads): a caller's config is as untrusted as a file's.
  const config = resolveMonitorConfig(input.config);

  const candidate = strongest(candidates(reading, input, config));
  if (!candidate) return { kind: 'none', reason: 'below-threshold', reading };
  const level = levelOfKind(candidate.kind);
  const announcedRank = Math.max(0, ...input.announced.map(rankOf));
  if (rankOf(level) <= announcedRank) return { kind: 'none', reason: 'already-announced', reading, heldBack: level };
  if (candidate.kind !== 'emergency' && input.deferred && rankOf(level) <= rankOf(input.deferred.upTo)) {
    return { kind: 'none', reason: 'deferred', reading, heldBack: level };
  }

  const forecast = forecastNextLevel(reading, input.growth, config.thresholds);
  const text = renderMonitorAlert({
    level,
    reason: candidate.reason,
    reading,
    forecast,
    tokensPerCall: input.growth?.tokensPerCall,
    issueId: input.issueId,
    config,
  });
  const acting = { reason: candidate.reason, reading, forecast, ...(text !== undefined ? { text } : {}) };
  switch (candidate.kind) {
    case 'warn':
      return { kind: 'warn', level: 'L1', ...acting };
    case 'handoff':
      return { kind: 'handoff', level: 'L2', timing: candidate.timing, ...acting };
    case 'emergency':
      return { kind: 'emergency', level: 'L3', ...acting };
  }
}

/** Every rule that holds, in the order ties are broken. */
function candidates(reading: KnownContextReading, input: DecideMonitorActionInput, config: MonitorConfig): Candidate[] {
  const { thresholds, policy } = config;
  const at = (percent: number): boolean => reached(reading.contextTokens, reading.contextWindow, percent);
  const out: Candidate[] = [];
  if (at(thresholds.l3)) out.push({ kind: 'emergency', reason: 'threshold' });
  else if (at(thresholds.l2)) out.push({ kind: 'handoff', reason: 'threshold', timing: 'after-step' });
  else if (at(thresholds.l1)) out.push({ kind: 'warn', reason: 'threshold' });

  if (at(policy.emergencyPercent)) out.push({ kind: 'emergency', reason: 'p1-emergency' });
  switch (input.taskSize) {
    case 'large':
      if (at(policy.largeTaskHandoffPercent)) out.push({ kind: 'handoff', reason: 'large-task', timing: 'after-step' });
      else if (at(policy.largeTaskWarnPercent)) out.push({ kind: 'warn', reason: 'large-task' });
      break;
    case 'small':
      if (at(policy.smallTaskHandoffPercent)) out.push({ kind: 'handoff', reason: 'small-task', timing: 'after-task' });
      break;
    case 'medium':
    case undefined:
      break;
  }

  const perCall = input.growth?.tokensPerCall;
  if (policy.lookaheadCalls > 0 && perCall !== undefined && Number.isFinite(perCall) && perCall > 0) {
    const predicted = reading.contextTokens + policy.lookaheadCalls * perCall;
    if (at(thresholds.l2) && reached(predicted, reading.contextWindow, thresholds.l3)) out.push({ kind: 'emergency', reason: 'trajectory' });
    else if (at(thresholds.l1) && reached(predicted, reading.contextWindow, thresholds.l2)) out.push({ kind: 'handoff', reason: 'trajectory', timing: 'after-step' });
  }
  return out;
}

/** The most severe candidate; the first listed among equals. */
function strongest(list: readonly Candidate[]): Candidate | undefined {
  let best: Candidate | undefined;
  for (const candidate of list) {
    if (!best || monitorSeverity(candidate.kind) > monitorSeverity(best.kind)) best = candidate;
  }
  return best;
}

/** `tokens × 100 ≥ percent × window`: exact at the boundary, like core's `levelOf`. */
function reached(tokens: number, window: number, percent: number): boolean {
  return tokens * 100 >= percent * window;
}

function levelOfKind(kind: Candidate['kind']): MonitorLevel {
  switch (kind) {
    case 'warn':
      return 'L1';
    case 'handoff':
      return 'L2';
    case 'emergency':
      return 'L3';
  }
}

function rankOf(level: MonitorLevel): number {
  switch (level) {
    case 'L1':
      return 1;
    case 'L2':
      return 2;
    case 'L3':
      return 3;
  }
}
