import type { MetricsReport } from './build-report.ts';

/** The seed's targets, shown next to each measured value. */
export const METRIC_TARGETS = {
  successfulResumes: 'target > 90 %',
  userInitiated: 'target > 50 %',
  compactionsWithoutHandoff: 'target: lost context −80 %',
  estimateAccuracy: 'within ±25 %',
} as const;

/** Options of {@link renderReport}. */
export interface RenderReportOptions {
  /** Lines the log reader skipped (corrupt or invalid), reported so a damaged log is visible. */
  readonly skippedLines?: number;
  /** True when the log was larger than its read cap and only its newest part was read. */
  readonly truncated?: boolean;
}

/** The report as plain text, one metric per line, for `agent-checkpoint-hook report`. */
export function renderReport(report: MetricsReport, options: RenderReportOptions = {}): string {
  const lines: string[] = [];
  const span = report.from !== undefined && report.to !== undefined ? ` (${report.from.slice(0, 10)} to ${report.to.slice(0, 10)})` : '';
  lines.push(`Context checkpoint metrics: ${report.events} event${report.events === 1 ? '' : 's'}${span}`);
  const h = report.handoffs;
  lines.push(`Handoffs: ${h.total} (L1 ${h.byLevel.L1}, L2 ${h.byLevel.L2}, L3 ${h.byLevel.L3}); auto ${h.auto}, user ${h.user}`);
  lines.push(`User-initiated share: ${percent(h.userInitiatedShare)} (${METRIC_TARGETS.userInitiated})`);
  const r = report.resumes;
  lines.push(`Resumes: ${r.consumed}; completed ${r.completed}, not completed ${r.notCompleted}, unknown ${r.outcomeUnknown}; success ${percent(r.successRate)} (${METRIC_TARGETS.successfulResumes})`);
  const c = report.compactions;
  lines.push(`Compactions: ${c.total}; without a handoff ${c.withoutHandoff} (${percent(c.withoutHandoffShare)})`);
  const e = report.estimates;
  lines.push(
    e.samples === 0
      ? 'Estimate accuracy: no estimates with an actual yet'
      : `Estimate accuracy: ${e.samples} estimate${e.samples === 1 ? '' : 's'}; median error ${e.medianAbsPercentError} %; ${percent(e.withinQuarterShare)} ${METRIC_TARGETS.estimateAccuracy}`,
  );
  const a = report.alerts;
  lines.push(`Alerts: L1 warnings ${a.l1Warnings}, estimate warnings ${a.estimateWarnings}, shard suggestions ${a.shardSuggestions}`);
  if ((options.skippedLines ?? 0) > 0) lines.push(`(${options.skippedLines} unreadable log line${options.skippedLines === 1 ? '' : 's'} skipped)`);
  if (options.truncated === true) lines.push('(the log exceeded its size cap: only its newest part was read)');
  return `${lines.join('\n')}\n`;
}

function percent(share: number | undefined): string {
  return share === undefined ? 'n/a' : `${Math.round(share * 100)} %`;
}
