import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRepoRoot } from './repo-root.ts';
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

/** The monitor's configurations, each a user config file (`undefined`: none at all). */
const CASES: Readonly<Record<MonitorCase, Record<string, unknown> | undefined>> = {
  // The default: the gate reads two small files and exits.
  disabled: {},
  // On, with a window so large that the reading stays below every level: the whole decide path
  // (tail read of the newest usage record, growth, decision, marks) and no action.
  enabled: { context: { enabled: true, windowTokens: 1_000_000_000 } },
  // What the Claude Code and Codex plugins run (issue 24): `sh hooks/run-hook.sh post-tool <agent>`.
  // Off with no configuration file (the default install): the launcher decides with `[ -f ]` tests
  // and starts no node.
  'launcher-off': undefined,
  // On: the launcher finds the user file and starts the same bin as `enabled`.
  'launcher-on': { context: { enabled: true, windowTokens: 1_000_000_000 } },
};

/** An empty hook command as an agent would start one (`sh -c :`). */
const EMPTY_HOOK_ARGV: readonly string[] = ['/bin/sh', '-c', ':'];

/** A plugin root as installed: the committed launcher beside the bench's build of the bin. */
function pluginRoot(dir: string, hookBundle: string): string {
  const root = join(dir, 'plugin');
  mkdirSync(join(root, 'hooks'), { recursive: true });
  copyFileSync(join(findRepoRoot(), 'plugins', 'agent-checkpoint', 'hooks', 'run-hook.sh'), join(root, 'hooks', 'run-hook.sh'));
  symlinkSync(dirname(hookBundle), join(root, 'dist'));
  return root;
}

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
      const base = { HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CACHE_HOME: join(home, 'cache'), PATH: process.env['PATH'] ?? '' };
      const settings = CASES[name];
      if (settings === undefined) return base;
      const config = join(home, 'config.json');
      writeFileSync(config, `${JSON.stringify(settings)}\n`);
      return { ...base, AGENT_CHECKPOINT_CONFIG: config };
    };
    const names = Object.keys(CASES) as MonitorCase[];
    const envs = Object.fromEntries(names.map((name) => [name, envFor(name)])) as Record<MonitorCase, Record<string, string>>;
    const samples: Record<'floor' | 'emptyHook' | MonitorCase, ProcessSample[]> = { floor: [], emptyHook: [], disabled: [], enabled: [], 'launcher-off': [], 'launcher-on': [] };
    const launcher = join(pluginRoot(join(dir, size.label.replaceAll(' ', '-')), input.hookBundle), 'hooks', 'run-hook.sh');
    const argvOf = (name: MonitorCase): string[] =>
      name.startsWith('launcher-') ? ['/bin/sh', launcher, 'post-tool', agent] : [process.execPath, input.hookBundle, 'post-tool', agent];
    for (let round = 0; round <= input.runs; round += 1) {
      const floor = runMeasured(FLOOR_ARGV, { input: payload });
      // What any hook command costs through this harness: the launcher's own share is the difference.
      const emptyHook = runMeasured(EMPTY_HOOK_ARGV, { input: payload, cwd: input.repoDir });
      const measured = names.map((name) => [name, runMeasured(argvOf(name), { input: payload, env: envs[name], cwd: input.repoDir })] as const);
      for (const [name, sample] of measured) {
        if (sample.exitCode !== 0 || sample.stdout !== '') throw new Error(`monitor ${name}: exit ${sample.exitCode}, stdout ${JSON.stringify(sample.stdout.slice(0, 200))}, stderr ${sample.stderr.slice(0, 200)}`);
      }
      if (round === 0) continue; // warm-up (page cache)
      samples.floor.push(floor);
      samples.emptyHook.push(emptyHook);
      for (const [name, sample] of measured) samples[name].push(sample);
    }
    const floor = toStats(samples.floor);
    const emptyHook = toStats(samples.emptyHook);
    for (const name of names) {
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
        ...(name.startsWith('launcher-') ? { emptyHook } : {}),
      });
      const overEmpty = name === 'launcher-off' ? `; an empty hook ${emptyHook.wallMs.median.toFixed(1)} ms, the launcher's own +${(monitor.wallMs.median - emptyHook.wallMs.median).toFixed(1)} ms` : '';
      input.log(`  monitor ${agent} ${size.label} ${name}: ${monitor.wallMs.median.toFixed(1)} ms vs bare ${floor.wallMs.median.toFixed(1)} ms (${(monitor.wallMs.median / floor.wallMs.median).toFixed(2)}×)${overEmpty}`);
    }
  }
  return cells;
}
