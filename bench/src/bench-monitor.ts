import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentScenario } from './bench-scenarios.ts';
import type { CachedTranscript } from './generate-transcript.ts';
import { runMeasured, type ProcessSample } from './measure-process.ts';
import { FLOOR_ARGV, toStats } from './process-stats.ts';
import type { MonitorCell, MonitorCase } from './results.ts';

export interface MonitorBenchInput {
  readonly hookBundle: string;
  readonly scenario: AgentScenario;
  readonly sizes: readonly { readonly label: string; readonly bytes: number }[];
  readonly transcripts: ReadonlyMap<string, CachedTranscript>;
  /** A repository to run in (the session's cwd). */
  readonly repoDir: string;
  readonly tempRoot: string;
  readonly runs: number;
  readonly log: (line: string) => void;
}

/** The monitor's configurations, each a user config file. */
const CASES: Readonly<Record<MonitorCase, Record<string, unknown>>> = {
  // The default: the gate reads two small files and exits.
  disabled: {},
  // On, with a window so large that the reading stays below every level: the whole decide path
  // (tail read of the newest usage record, growth, decision, marks) and no action.
  enabled: { context: { enabled: true, windowTokens: 1_000_000_000 } },
};

/**
 * The monitor after every tool call (`agent-checkpoint-hook post-tool <agent>`, issue 14: ≤ 1.3× bare
 * node start) as a whole process, next to bare node, per transcript size: disabled (the default, which
 * the plugin always runs) and enabled without an action. Rounds interleave bare node and both cases.
 */
export function benchMonitor(input: MonitorBenchInput): MonitorCell[] {
  const dir = mkdtempSync(join(input.tempRoot, 'monitor-'));
  const cells: MonitorCell[] = [];
  const agent = input.scenario.agent;
  for (const size of input.sizes) {
    const transcript = input.transcripts.get(`${agent}/${size.label}`);
    if (transcript === undefined) continue;
    const payload = JSON.stringify({ ...input.scenario.payload, hook_event_name: 'PostToolUse', transcript_path: transcript.path, cwd: input.repoDir, tool_name: 'Bash' });
    const envFor = (name: MonitorCase): Record<string, string> => {
      const home = join(dir, `${size.label}-${name}`);
      mkdirSync(home, { recursive: true });
      const config = join(home, 'config.json');
      writeFileSync(config, `${JSON.stringify(CASES[name])}\n`);
      return { HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CACHE_HOME: join(home, 'cache'), AGENT_CHECKPOINT_CONFIG: config, PATH: process.env['PATH'] ?? '' };
    };
    const envs: Record<MonitorCase, Record<string, string>> = { disabled: envFor('disabled'), enabled: envFor('enabled') };
    const samples: Record<'floor' | MonitorCase, ProcessSample[]> = { floor: [], disabled: [], enabled: [] };
    const argv = [process.execPath, input.hookBundle, 'post-tool', agent];
    for (let round = 0; round <= input.runs; round += 1) {
      const floor = runMeasured(FLOOR_ARGV, { input: payload });
      const measured = (Object.keys(CASES) as MonitorCase[]).map((name) => [name, runMeasured(argv, { input: payload, env: envs[name], cwd: input.repoDir })] as const);
      for (const [name, sample] of measured) {
        if (sample.exitCode !== 0 || sample.stdout !== '') throw new Error(`monitor ${name}: exit ${sample.exitCode}, stdout ${JSON.stringify(sample.stdout.slice(0, 200))}, stderr ${sample.stderr.slice(0, 200)}`);
      }
      if (round === 0) continue; // warm-up (page cache)
      samples.floor.push(floor);
      for (const [name, sample] of measured) samples[name].push(sample);
    }
    const floor = toStats(samples.floor);
    for (const name of Object.keys(CASES) as MonitorCase[]) {
      const monitor = toStats(samples[name]);
      cells.push({
        agent,
        sizeLabel: size.label,
        fileBytes: size.bytes,
        case: name,
        monitor,
        floor,
        wallRatio: monitor.wallMs.median / floor.wallMs.median,
        rssOverFloorMiB: monitor.peakRssMiB.median - floor.peakRssMiB.median,
      });
      input.log(`  monitor ${agent} ${size.label} ${name}: ${monitor.wallMs.median.toFixed(1)} ms vs bare ${floor.wallMs.median.toFixed(1)} ms (${(monitor.wallMs.median / floor.wallMs.median).toFixed(2)}×)`);
    }
  }
  return cells;
}
