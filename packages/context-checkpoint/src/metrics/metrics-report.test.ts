import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildReport, reportFromLog } from './build-report.ts';
import { metricsLogLocation, readMetricsEvents, recordMetricsEvent, type MetricsEvent } from './metrics-events.ts';
import { renderReport } from './render-report.ts';

let root: string;
let options: { stateDir: string; projectRoot: string };

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ac-metrics-'));
  options = { stateDir: join(root, 'state'), projectRoot: join(root, 'repo') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const at = (minute: number): string => new Date(Date.UTC(2026, 10, 20, 9, minute)).toISOString();

/** A realistic week of one project: two auto handoffs, one user checkpoint, resumes, compactions, estimates, alerts. */
const WEEK: MetricsEvent[] = [
  { type: 'estimate', at: at(0), estimatedTokens: 40_000, actualTokens: 36_000 },
  { type: 'handoff', at: at(5), level: 'L2', trigger: 'auto', handoff: '2026-11-20-0905.md' },
  { type: 'resume', at: at(10), handoff: '2026-11-20-0905.md', consumed: true },
  { type: 'resume', at: at(11), handoff: '2026-11-20-0905.md', consumed: true },
  { type: 'resume-outcome', at: at(30), handoff: '2026-11-20-0905.md', completed: true },
  { type: 'handoff', at: at(31), level: 'L1', trigger: 'user', handoff: '2026-11-20-0931.md' },
  { type: 'resume', at: at(32), handoff: '2026-11-20-0931.md', consumed: true },
  { type: 'compaction', at: at(40), handoffBefore: true },
  { type: 'compaction', at: at(41), handoffBefore: false },
  { type: 'handoff', at: at(45), level: 'L3', trigger: 'auto' },
  { type: 'resume', at: at(46), handoff: 'never-shown.md', consumed: false },
  { type: 'estimate', at: at(50), estimatedTokens: 20_000, actualTokens: 40_000 },
  { type: 'estimate', at: at(55), estimatedTokens: 10_000, actualTokens: 11_000 },
  { type: 'alert', at: at(56), kind: 'l1-warning', percent: 72 },
  { type: 'alert', at: at(57), kind: 'estimate-warning', estimatedPercent: 52 },
  { type: 'alert', at: at(58), kind: 'shard-suggestion', estimatedPercent: 71, shards: 3 },
  { type: 'alert', at: at(59), kind: 'l1-warning', percent: 76 },
];

describe('buildReport', () => {
  it('counts handoffs by level and trigger, resumes per handoff with outcomes, compactions without a handoff, estimate accuracy', () => {
    const report = buildReport(WEEK);
    expect(report.events).toBe(17);
    expect(report.from).toBe(at(0));
    expect(report.to).toBe(at(59));
    expect(report.handoffs).toEqual({ total: 3, byLevel: { L1: 1, L2: 1, L3: 1 }, auto: 2, user: 1, userInitiatedShare: 1 / 3 });
    // The handoff resumed twice counts once; the unconsumed one not at all.
    expect(report.resumes).toEqual({ consumed: 2, completed: 1, notCompleted: 0, outcomeUnknown: 1, successRate: 1 });
    expect(report.compactions).toEqual({ total: 2, withoutHandoff: 1, withoutHandoffShare: 0.5 });
    // Errors 11.1 %, 50 %, 9.1 %: median 11.1 %; two of three within ±25 %.
    expect(report.estimates.samples).toBe(3);
    expect(report.estimates.medianAbsPercentError).toBe(11.1);
    expect(report.estimates.withinQuarterShare).toBeCloseTo(2 / 3, 10);
    // Each alert once, by kind; a warning with a shard breakdown is a shard suggestion only.
    expect(report.alerts).toEqual({ l1Warnings: 2, estimateWarnings: 1, shardSuggestions: 1 });
  });

  it('a handoff recorded twice (two routes, a retried write) is one checkpoint', () => {
    const events: MetricsEvent[] = [
      { type: 'handoff', at: at(1), level: 'L2', trigger: 'auto', handoff: '2026-11-20-0901' },
      { type: 'handoff', at: at(1), level: 'L2', trigger: 'auto', handoff: '2026-11-20-0901' },
      { type: 'handoff', at: at(2), level: 'L3', trigger: 'auto', handoff: '2026-11-20-0902' },
    ];
    expect(buildReport(events).handoffs).toMatchObject({ total: 2, byLevel: { L1: 0, L2: 1, L3: 1 } });
  });

  it('the latest outcome of a resumed handoff wins, whatever the order of the events', () => {
    const events: MetricsEvent[] = [
      { type: 'resume-outcome', at: at(20), handoff: 'h.md', completed: true },
      { type: 'resume', at: at(1), handoff: 'h.md', consumed: true },
      { type: 'resume-outcome', at: at(10), handoff: 'h.md', completed: false },
    ];
    expect(buildReport(events).resumes).toMatchObject({ consumed: 1, completed: 1, notCompleted: 0, successRate: 1 });
  });

  it('an empty log has no shares (n/a), not zeros that read as failures', () => {
    const report = buildReport([]);
    expect(report.handoffs.userInitiatedShare).toBeUndefined();
    expect(report.resumes.successRate).toBeUndefined();
    expect(report.estimates).toEqual({ samples: 0 });
    expect(report.alerts).toEqual({ l1Warnings: 0, estimateWarnings: 0, shardSuggestions: 0 });
    expect(renderReport(report)).toContain('User-initiated share: n/a');
  });
});

describe('the metrics log on disk', () => {
  it('records events, skips invalid lines someone else wrote, and reports them', async () => {
    for (const event of WEEK) await recordMetricsEvent(options, event);
    const path = join(options.stateDir, metricsLogLocation(options).relPath);
    appendFileSync(
      path,
      [
        '{"type":"handoff","at":"yesterday","level":"L2","trigger":"auto"}',
        '{"type":"bogus","at":"2026-11-20T09:00:00Z"}',
        '\u0000\u0001garbage',
        // Alerts someone else wrote: an unknown kind, a percentage that is no number, a forged shard count.
        '{"type":"alert","at":"2026-11-20T09:00:00Z","kind":"l9-warning"}',
        '{"type":"alert","at":"2026-11-20T09:00:00Z","kind":"l1-warning","percent":"72"}',
        '{"type":"alert","at":"2026-11-20T09:00:00Z","kind":"shard-suggestion","shards":1e9}',
        '',
      ].join('\n'),
    );
    const read = await readMetricsEvents(options);
    expect(read.records).toEqual(WEEK);
    expect(read.skippedLines).toBe(6);
    const text = renderReport(buildReport(read.records), { skippedLines: read.skippedLines });
    expect(text).toBe(
      [
        'Context checkpoint metrics: 17 events (2026-11-20 to 2026-11-20)',
        'Handoffs: 3 (L1 1, L2 1, L3 1); auto 2, user 1',
        'User-initiated share: 33 % (target > 50 %)',
        'Resumes: 2; completed 1, not completed 0, unknown 1; success 100 % (target > 90 %)',
        'Compactions: 2; without a handoff 1 (50 %)',
        'Estimate accuracy: 3 estimates; median error 11.1 %; 67 % within ±25 %',
        'Alerts: L1 warnings 2, estimate warnings 1, shard suggestions 1',
        '(6 unreadable log lines skipped)',
        '',
      ].join('\n'),
    );
    // The JSON form: the report and what the reader skipped, round-tripping through JSON.
    const fromLog = await reportFromLog(options);
    expect(fromLog).toEqual({ report: buildReport(WEEK), skippedLines: 6, truncated: false });
    expect(JSON.parse(JSON.stringify(fromLog))).toEqual(fromLog);
  });

  it('refuses to write an invalid event (a caller bug never leaves a line the reader would skip)', async () => {
    await expect(recordMetricsEvent(options, { type: 'handoff', at: 'now', level: 'L2', trigger: 'auto' })).rejects.toThrow(/ISO-8601/);
    expect((await readMetricsEvents(options)).records).toEqual([]);
  });

  it('keeps one log per project', async () => {
    await recordMetricsEvent(options, WEEK[0] as MetricsEvent);
    const other = { ...options, projectRoot: join(root, 'other-repo') };
    expect((await readMetricsEvents(other)).records).toEqual([]);
    expect(metricsLogLocation(other).relPath).not.toBe(metricsLogLocation(options).relPath);
  });
});
