import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { payloadFor, type AgentScenario } from './bench-scenarios.ts';
import { finalTurnText, withFinalTurn, type CachedTranscript } from './generate-transcript.ts';
import { runMeasured, type ProcessSample } from './measure-process.ts';
import { FLOOR_ARGV, toStats } from './process-stats.ts';
import { TARGETS, type HookCell, type NaiveCell } from './results.ts';

/** One benchmark repository (see make-bench-repo.ts) and the environment the hook runs in. */
export interface BenchRepo {
  readonly changedFiles: number;
  readonly dir: string;
  readonly home: string;
  readonly env: Readonly<Record<string, string>>;
}

export interface HookBenchInput {
  readonly scenario: AgentScenario;
  readonly sizeLabel: string;
  readonly transcript: CachedTranscript;
  readonly repos: readonly BenchRepo[];
  readonly hookBundle: string;
  readonly naiveBundle: string;
  /** The design's physical floor (minimal-hook.ts): node + payload + git rev-parse ‖ status + a 64 KiB tail read. */
  readonly minimalBundle: string;
  readonly runs: number;
  readonly naiveRuns: number;
  readonly tempRoot: string;
  readonly log: (line: string) => void;
}

/**
 * One agent and transcript size: for every repository, `runs` rounds of {bare node, hook} in
 * alternating order (so drifting load hits both alike) after one warm-up round; the naive full-file
 * reader runs in the first `naiveRuns` rounds of the first repository.
 */
export function benchHookSize(input: HookBenchInput): { cells: HookCell[]; naive: NaiveCell } {
  const { scenario, repos, runs } = input;
  const cells: HookCell[] = [];
  const naiveSamples: ProcessSample[] = [];
  let naiveError: string | undefined;
  let fileBytes = 0;
  for (const [repoIndex, repo] of repos.entries()) {
    withFinalTurn(input.transcript, finalTurnText(scenario, input.transcript.historyTurns, repo.dir, repo.home), (path, totalBytes) => {
      fileBytes = totalBytes;
      const payload = payloadFor(scenario, path, repo.dir);
      const hookSamples: ProcessSample[] = [];
      const floorSamples: ProcessSample[] = [];
      const minimalSamples: ProcessSample[] = [];
      const runMinimal = (): ProcessSample => {
        const sample = runMeasured([process.execPath, input.minimalBundle], { input: payload, cwd: repo.dir, env: repo.env });
        if (sample.exitCode !== 0) throw new Error(`minimal hook exited ${sample.exitCode}: ${sample.stderr}`);
        return sample;
      };
      const outcomes: Record<string, number> = {};
      let stderrSample: string | undefined;
      // One state directory per cell, as on a user's machine (the once-a-day prune has run, earlier
      // sessions' files exist); each run is a new session, so every run is a first block.
      const stateDir = mkdtempSync(join(input.tempRoot, 'state-'));
      let run = 0;
      const runHook = (): ProcessSample => {
        run += 1;
        const sample = runMeasured([process.execPath, input.hookBundle, scenario.agent], {
          input: sessionPayload(payload, run),
          cwd: repo.dir,
          env: { ...repo.env, AGENT_CHECKPOINT_STATE_DIR: stateDir },
        });
        if (sample.exitCode !== 0) throw new Error(`hook ${scenario.agent} exited ${sample.exitCode}: ${sample.stderr}`);
        return sample;
      };
      // Warm-up: page cache for the bundle, git's index stat data, the transcript tail.
      runHook();
      runMinimal();
      runMeasured(FLOOR_ARGV, { env: repo.env });
      for (let i = 0; i < runs; i += 1) {
        const order = i % 2 === 0 ? (['floor', 'minimal', 'hook'] as const) : (['hook', 'minimal', 'floor'] as const);
        for (const what of order) {
          if (what === 'floor') floorSamples.push(runMeasured(FLOOR_ARGV, { env: repo.env }));
          else if (what === 'minimal') minimalSamples.push(runMinimal());
          else {
            const sample = runHook();
            hookSamples.push(sample);
            const outcome = outcomeOf(sample.stdout);
            outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
            if (stderrSample === undefined && sample.stderr.trim() !== '') stderrSample = sample.stderr.trim().split('\n')[0];
          }
        }
        if (repoIndex === 0 && i < input.naiveRuns) {
          const sample = runMeasured([process.execPath, input.naiveBundle, path], { env: repo.env, timeoutMs: 600_000 });
          naiveSamples.push(sample);
          if (sample.exitCode !== 0) naiveError = (JSON.parse(sample.stdout.trim() || '{}') as { error?: string }).error ?? `exit ${sample.exitCode}`;
        }
      }
      rmSync(stateDir, { recursive: true, force: true });
      const hook = toStats(hookSamples);
      const floor = toStats(floorSamples);
      const wallRatio = hook.wallMs.median / floor.wallMs.median;
      const rssOverFloorMiB = hook.peakRssMiB.median - floor.peakRssMiB.median;
      cells.push({
        agent: scenario.agent,
        sizeLabel: input.sizeLabel,
        fileBytes: totalBytes,
        changedFiles: repo.changedFiles,
        hook,
        floor,
        minimal: toStats(minimalSamples),
        wallRatio,
        rssOverFloorMiB,
        outcomes,
        ...(stderrSample === undefined ? {} : { stderrSample }),
        meetsWall: wallRatio <= TARGETS.wallRatio,
        meetsRss: rssOverFloorMiB <= TARGETS.rssOverFloorMiB,
      });
      input.log(
        `  hook ${scenario.agent} ${input.sizeLabel} ${repo.changedFiles} files: wall ${hook.wallMs.median.toFixed(1)} ms (floor ${floor.wallMs.median.toFixed(1)}, ×${wallRatio.toFixed(2)}), RSS ${hook.peakRssMiB.median.toFixed(1)} MiB (+${rssOverFloorMiB.toFixed(1)}), ${JSON.stringify(outcomes)}`,
      );
    });
  }
  const naive: NaiveCell = {
    agent: scenario.agent as AgentId,
    sizeLabel: input.sizeLabel,
    fileBytes,
    stats: toStats(naiveSamples),
    ...(naiveError === undefined ? {} : { error: naiveError }),
  };
  input.log(`  naive ${scenario.agent} ${input.sizeLabel}: wall ${naive.stats.wallMs.median.toFixed(0)} ms, RSS ${naive.stats.peakRssMiB.median.toFixed(0)} MiB${naiveError ? ` (failed: ${naiveError})` : ''}`);
  return { cells, naive };
}

/** The payload as the `run`-th session: a new session id, everything else as recorded. */
export function sessionPayload(payload: string, run: number): string {
  const parsed = JSON.parse(payload) as Record<string, unknown>;
  return JSON.stringify({ ...parsed, session_id: `${String(parsed['session_id'])}-bench-${run}` });
}

/** `block` when the hook printed a decision, `pass` for empty stdout, else `other`. */
export function outcomeOf(stdout: string): string {
  const text = stdout.trim();
  if (text === '') return 'pass';
  try {
    const parsed = JSON.parse(text) as { decision?: string };
    return parsed.decision ?? 'other';
  } catch {
    return 'invalid-output';
  }
}

export function ensureDir(path: string): string {
  mkdirSync(path, { recursive: true });
  return path;
}
