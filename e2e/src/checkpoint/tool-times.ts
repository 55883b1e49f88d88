import { ROUTE_LABELS, type CheckpointRoute, type RouteRun } from './checkpoint-routes.ts';

interface Sample {
  readonly route: CheckpointRoute;
  readonly delivered: boolean;
  readonly ms: number;
}

const samples: Sample[] = [];

/** Keeps the measured wall times of our tool on one run, for {@link formatToolTimes}. */
export function recordToolTimes(run: RouteRun): void {
  for (const t of run.toolTimes) samples.push({ route: run.route, delivered: t.delivered, ms: t.ms });
}

function summary(values: readonly number[]): string {
  if (values.length === 0) return 'n=0';
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  return `n=${values.length} median=${Math.round(median)} max=${Math.round(sorted.at(-1) ?? 0)} [${values.map((v) => Math.round(v)).join(', ')}]`;
}

/**
 * A per-route summary of the wall times recorded in this test file, split into stops where our tool
 * delivered a checkpoint and stops where it let the agent stop, for the test log. These are
 * measurements on whatever machine runs the tests, not assertions: speed targets live in the
 * delivery packages' benchmarks.
 */
export function formatToolTimes(title: string): string {
  if (samples.length === 0) return `${title}: no samples`;
  const lines = [`${title} (ms; hook routes: hook command spawn→exit via the probe; tmux: notify program "turn complete"→decision, typing included)`];
  for (const route of Object.keys(ROUTE_LABELS) as CheckpointRoute[]) {
    const mine = samples.filter((s) => s.route === route);
    if (mine.length === 0) continue;
    lines.push(`  ${ROUTE_LABELS[route]}`);
    lines.push(`    delivered a checkpoint: ${summary(mine.filter((s) => s.delivered).map((s) => s.ms))}`);
    lines.push(`    let the stop pass:      ${summary(mine.filter((s) => !s.delivered).map((s) => s.ms))}`);
  }
  return lines.join('\n');
}
