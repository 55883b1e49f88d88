import type { AgentScenario } from './bench-scenarios.ts';
import { finalTurnText, withFinalTurn, type CachedTranscript } from './generate-transcript.ts';
import { runMeasured, type ProcessSample } from './measure-process.ts';
import { FLOOR_ARGV, toStats } from './process-stats.ts';
import type { TailReadCell } from './results.ts';
import { MiB, summarize } from './stats.ts';
import type { TailReadReport } from './tail-read-runner.ts';

export interface TailReadInput {
  readonly scenario: AgentScenario;
  readonly sizeLabel: string;
  readonly transcript: CachedTranscript;
  readonly repo: { readonly dir: string; readonly home: string };
  /** The environment of the runner and of bare node (hermetic, no NODE_* variables). */
  readonly env: Readonly<Record<string, string>>;
  readonly runnerBundle: string;
  readonly runs: number;
  readonly warmReads: number;
  /** The runner's answer on the recorded fixture itself: the turn every size must find. */
  readonly reference: TailReadReport;
  readonly log: (line: string) => void;
}

/** Run the tail-read runner once and parse its report. */
export function runTailReader(
  runnerBundle: string,
  scenario: AgentScenario,
  path: string,
  reads: number,
  env?: Readonly<Record<string, string>>,
): { sample: ProcessSample; report: TailReadReport } {
  const sample = runMeasured([process.execPath, runnerBundle, scenario.agent, path, JSON.stringify(scenario.hint), String(reads)], env === undefined ? {} : { env });
  if (sample.exitCode !== 0) throw new Error(`tail-read runner ${scenario.agent} exited ${sample.exitCode}: ${sample.stderr}`);
  return { sample, report: JSON.parse(sample.stdout.trim()) as TailReadReport };
}

/**
 * The reader alone on one size: `runs` processes doing one read each (alternating with bare node), and
 * one process doing `warmReads` reads for the warm in-process time.
 */
export function benchTailRead(input: TailReadInput): TailReadCell {
  const { scenario } = input;
  return withFinalTurn(input.transcript, finalTurnText(scenario, input.transcript.historyTurns, input.repo.dir, input.repo.home), (path, totalBytes) => {
    runTailReader(input.runnerBundle, scenario, path, 1, input.env);
    const processSamples: ProcessSample[] = [];
    const floorSamples: ProcessSample[] = [];
    const reports: TailReadReport[] = [];
    for (let i = 0; i < input.runs; i += 1) {
      if (i % 2 === 0) floorSamples.push(runMeasured(FLOOR_ARGV, { env: input.env }));
      const { sample, report } = runTailReader(input.runnerBundle, scenario, path, 1, input.env);
      processSamples.push(sample);
      reports.push(report);
      if (i % 2 === 1) floorSamples.push(runMeasured(FLOOR_ARGV, { env: input.env }));
    }
    const warm = runTailReader(input.runnerBundle, scenario, path, input.warmReads, input.env).report;
    const first = reports[0] ?? warm;
    const rssGrowth = summarize(reports.map((r) => (r.memoryAfter.rss - r.memoryBefore.rss) / MiB)).median;
    const heapGrowth = summarize(
      reports.map((r) => (r.memoryAfter.heapUsed + r.memoryAfter.external - r.memoryBefore.heapUsed - r.memoryBefore.external) / MiB),
    ).median;
    const foundTurn = reports.every((r) => r.hasData && r.turnId === input.reference.turnId && r.calls === input.reference.calls);
    const cell: TailReadCell = {
      agent: scenario.agent,
      sizeLabel: input.sizeLabel,
      fileBytes: totalBytes,
      bytesRead: first.bytesRead,
      coldMs: summarize(reports.map((r) => r.coldMs)).median,
      warmMs: summarize(warm.warmMs),
      rssGrowthMiB: rssGrowth,
      heapGrowthMiB: heapGrowth,
      process: toStats(processSamples),
      floor: toStats(floorSamples),
      foundTurn,
      calls: first.calls,
      truncated: first.truncated,
    };
    input.log(
      `  tail ${scenario.agent} ${input.sizeLabel}: read ${(cell.bytesRead / 1024).toFixed(0)} KiB, cold ${cell.coldMs.toFixed(2)} ms, warm ${cell.warmMs.median.toFixed(2)} ms, RSS +${rssGrowth.toFixed(1)} MiB, process ${cell.process.wallMs.median.toFixed(1)} ms / ${cell.process.peakRssMiB.median.toFixed(1)} MiB, found ${foundTurn}`,
    );
    return cell;
  });
}
