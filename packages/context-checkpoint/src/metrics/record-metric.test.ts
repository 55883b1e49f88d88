import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { metricsLogLocation, readMetricsEvents } from './metrics-events.ts';
import { recordMetric } from './record-metric.ts';

let root: string;
let options: { stateDir: string; projectRoot: string };

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ac-record-metric-'));
  options = { stateDir: join(root, 'state'), projectRoot: join(root, 'repo') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const AT = '2026-11-20T09:00:00.000Z';

describe('recordMetric', () => {
  it('records a valid event and resolves to no diagnostic', async () => {
    await expect(recordMetric(options, { type: 'alert', at: AT, kind: 'l1-warning', percent: 72 })).resolves.toBeUndefined();
    expect((await readMetricsEvents(options)).records).toEqual([{ type: 'alert', at: AT, kind: 'l1-warning', percent: 72 }]);
  });

  it('turns an invalid event into one diagnostic line naming the bad fields, and writes nothing', async () => {
    // A percentage the monitor could compute from a broken usage line, and a time that is no time.
    const note = await recordMetric(options, { type: 'alert', at: 'yesterday', kind: 'l1-warning', percent: Number.NaN });
    expect(note).toBe('metrics: alert not recorded: invalid event: at: not an ISO-8601 time; percent: Invalid input: expected number, received NaN');
    expect(note).not.toMatch(/[\r\n]/);
    expect(existsSync(join(options.stateDir, metricsLogLocation(options).relPath))).toBe(false);
  });

  it('resolves to a diagnostic instead of throwing when the log cannot be written', async () => {
    writeFileSync(join(root, 'state'), 'a file where the state directory should be');
    const note = await recordMetric(options, { type: 'compaction', at: AT, handoffBefore: true });
    expect(note).toMatch(/^metrics: compaction not recorded: /);
    expect(note).not.toMatch(/[\r\n]/);
  });
});
