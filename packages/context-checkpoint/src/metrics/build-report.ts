import { estimateAccuracy, type EstimateAccuracy } from '../estimate/estimate-accuracy.ts';
import { readMetricsEvents, type AlertKind, type MetricsEvent, type MetricsLogOptions } from './metrics-events.ts';

/** The seed's success metrics over a metrics log (seed 004, "Success Metrics"). JSON-ready. */
export interface MetricsReport {
  readonly events: number;
  /** Earliest and latest event time, when there are events. */
  readonly from?: string;
  readonly to?: string;
  readonly handoffs: {
    readonly total: number;
    readonly byLevel: { readonly L1: number; readonly L2: number; readonly L3: number };
    readonly auto: number;
    readonly user: number;
    /** user / total, 0–1 ("User-initiated checkpoints > 50 %"); undefined without handoffs. */
    readonly userInitiatedShare?: number;
  };
  readonly resumes: {
    /** Distinct handoffs resumed (consumed by a session or loop iteration). */
    readonly consumed: number;
    readonly completed: number;
    readonly notCompleted: number;
    /** Consumed handoffs with no outcome recorded yet. */
    readonly outcomeUnknown: number;
    /** completed / (completed + notCompleted), 0–1 ("> 90 % successful resumes"); undefined without outcomes. */
    readonly successRate?: number;
  };
  readonly compactions: {
    readonly total: number;
    /** Compactions no handoff preceded: the context lost to auto-compaction. */
    readonly withoutHandoff: number;
    /** withoutHandoff / total, 0–1; undefined without compactions. */
    readonly withoutHandoffShare?: number;
  };
  readonly estimates: EstimateAccuracy;
  /** Alerts that reached the agent (seed 004's acceptance scenarios), by kind. */
  readonly alerts: {
    /** The monitor's L1 warnings (at most one per session and climb: its level mark). */
    readonly l1Warnings: number;
    /** The prompt hook's "may not fit" warnings without a shard breakdown. */
    readonly estimateWarnings: number;
    /** The prompt hook's warnings with a plan's shard breakdown. */
    readonly shardSuggestions: number;
  };
}

/**
 * Aggregate metrics events (any order) into the seed's success metrics. Pure.
 *
 * Handoffs are counted per handoff file: a second event naming the same one adds nothing. Resumes are counted per handoff: a handoff resumed twice is one resume (the second is the loop
 * runner's duplicate that RLP marks consumed), and its last recorded outcome wins. Alerts are counted
 * per event: each is recorded once, where it reached the agent.
 */
export function buildReport(events: readonly MetricsEvent[]): MetricsReport {
  const byLevel = { L1: 0, L2: 0, L3: 0 };
  let auto = 0;
  let user = 0;
  const consumed = new Set<string>();
  const handoffsSeen = new Set<string>();
  const outcomes = new Map<string, { at: number; completed: boolean }>();
  let compactions = 0;
  let withoutHandoff = 0;
  const estimates: { estimatedTokens: number; actualTokens: number }[] = [];
  const alerts = { l1Warnings: 0, estimateWarnings: 0, shardSuggestions: 0 };
  let from: number | undefined;
  let to: number | undefined;

  for (const event of events) {
    const at = Date.parse(event.at);
    if (Number.isFinite(at)) {
      from = from === undefined ? at : Math.min(from, at);
      to = to === undefined ? at : Math.max(to, at);
    }
    switch (event.type) {
      case 'handoff':
        // One handoff is one checkpoint, whichever route recorded it and however often (a route retried).
        if (event.handoff !== undefined) {
          if (handoffsSeen.has(event.handoff)) break;
          handoffsSeen.add(event.handoff);
        }
        byLevel[event.level] += 1;
        if (event.trigger === 'user') user += 1;
        else auto += 1;
        break;
      case 'resume':
        if (event.consumed) consumed.add(event.handoff);
        break;
      case 'resume-outcome': {
        const prior = outcomes.get(event.handoff);
        if (prior === undefined || !(prior.at > at)) outcomes.set(event.handoff, { at, completed: event.completed });
        break;
      }
      case 'compaction':
        compactions += 1;
        if (!event.handoffBefore) withoutHandoff += 1;
        break;
      case 'estimate':
        estimates.push({ estimatedTokens: event.estimatedTokens, actualTokens: event.actualTokens });
        break;
      case 'alert':
        alerts[alertCounter(event.kind)] += 1;
        break;
      default: {
        const never: never = event;
        throw new Error(`unknown metrics event ${JSON.stringify(never)}`);
      }
    }
  }

  let completed = 0;
  let notCompleted = 0;
  for (const handoff of consumed) {
    const outcome = outcomes.get(handoff);
    if (outcome === undefined) continue;
    if (outcome.completed) completed += 1;
    else notCompleted += 1;
  }
  const total = byLevel.L1 + byLevel.L2 + byLevel.L3;
  return {
    events: events.length,
    ...(from !== undefined ? { from: new Date(from).toISOString() } : {}),
    ...(to !== undefined ? { to: new Date(to).toISOString() } : {}),
    handoffs: { total, byLevel, auto, user, ...(total > 0 ? { userInitiatedShare: user / total } : {}) },
    resumes: {
      consumed: consumed.size,
      completed,
      notCompleted,
      outcomeUnknown: consumed.size - completed - notCompleted,
      ...(completed + notCompleted > 0 ? { successRate: completed / (completed + notCompleted) } : {}),
    },
    compactions: { total: compactions, withoutHandoff, ...(compactions > 0 ? { withoutHandoffShare: withoutHandoff / compactions } : {}) },
    estimates: estimateAccuracy(estimates),
    alerts,
  };
}

/** The report's counter of an alert kind. */
function alertCounter(kind: AlertKind): keyof MetricsReport['alerts'] {
  switch (kind) {
    case 'l1-warning':
      return 'l1Warnings';
    case 'estimate-warning':
      return 'estimateWarnings';
    case 'shard-suggestion':
      return 'shardSuggestions';
  }
}

/** {@link buildReport} over a project's log, with what the reader had to skip (for `report` and `report --json`). */
export interface MetricsLogReport {
  readonly report: MetricsReport;
  readonly skippedLines: number;
  readonly truncated: boolean;
  /** Why the log could not be read at all (the report is then empty). */
  readonly problem?: string;
}

/** Read the project's metrics log and build its report. Never throws. */
export async function reportFromLog(options: MetricsLogOptions): Promise<MetricsLogReport> {
  const read = await readMetricsEvents(options);
  return {
    report: buildReport(read.records),
    skippedLines: read.skippedLines,
    truncated: read.truncated,
    ...(read.problem !== undefined ? { problem: read.problem } : {}),
  };
}
