import type { ProcessSample } from './measure-process.ts';
import type { ProcessStats } from './results.ts';
import { summarize } from './stats.ts';

export function toStats(samples: readonly ProcessSample[]): ProcessStats {
  const cpu = samples.map((s) => s.cpuMs).filter((v) => Number.isFinite(v));
  return {
    runs: samples.length,
    wallMs: summarize(samples.map((s) => s.wallMs)),
    peakRssMiB: summarize(samples.map((s) => s.peakRssKiB / 1024)),
    cpuMsMean: cpu.length === 0 ? Number.NaN : cpu.reduce((a, b) => a + b, 0) / cpu.length,
  };
}

/** The floor every process is compared with: node starting and exiting with nothing to do. */
export const FLOOR_ARGV: readonly string[] = [process.execPath, '-e', ''];
