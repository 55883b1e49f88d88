import { ROUTE_LABELS, type CheckpointRoute, type RouteRun } from './checkpoint-routes.ts';

interface Sample {
  readonly route: CheckpointRoute;
  readonly scenario: string;
  readonly ms: number;
}

const samples: Sample[] = [];

/** Keeps the measured wall times of our tool on one run, for {@link formatToolTimes}. */
export function recordToolTimes(run: RouteRun): void {
  for (const ms of run.toolTimesMs) samples.push({ route: run.route, scenario: run.scenario.name, ms });
}

/**
 * A per-route summary of the wall times recorded in this test file (count, median, max, all
 * values), for the test log. These are measurements on whatever machine runs the tests, not
 * assertions: speed targets live in the delivery packages' benchmarks.
 */
export function formatToolTimes(title: string): string {
  if (samples.length === 0) return `${title}: no samples`;
  const lines = [`${title} (ms; hook routes: hook command spawn→exit via the probe; tmux: notify program "turn complete"→decision, typing included)`];
  for (const route of Object.keys(ROUTE_LABELS) as CheckpointRoute[]) {
    const values = samples.filter((s) => s.route === route).map((s) => s.ms);
    if (values.length === 0) continue;
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
    const max = sorted.at(-1) ?? 0;
    lines.push(`  ${ROUTE_LABELS[route].padEnd(26)} n=${values.length} median=${Math.round(median)} max=${Math.round(max)}  [${values.map((v) => Math.round(v)).join(', ')}]`);
  }
  return lines.join('\n');
}
