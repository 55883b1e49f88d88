import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { payloadFor, type AgentScenario } from './bench-scenarios.ts';
import { finalTurnText, withFinalTurn, type CachedTranscript } from './generate-transcript.ts';
import { runMeasured, type ProcessSample } from './measure-process.ts';
import { FLOOR_ARGV, toStats } from './process-stats.ts';
import { designFloorRatioOf, TARGETS, type HookCell, type NaiveCell } from './results.ts';

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
  /** Rounds (the first ones) that also run the hook with an empty code cache directory: the first run after install. */
  readonly firstRuns: number;
  readonly naiveRuns: number;
  readonly tempRoot: string;
  readonly log: (line: string) => void;
}

/**
 * One agent and transcript size: for every repository, `runs` rounds of {bare node, design floor, hook}
 * in alternating order (so drifting load hits all alike) after one warm-up round; the naive full-file
 * reader runs in the first `naiveRuns` rounds of the first repository.
 *
 * The hook is the shipped bin (launcher + main bundle through the V8 code cache). Its cache lives in
 * the repository's temp HOME (`XDG_CACHE_HOME`): the warm-up run writes it, so `hook` is the steady
 * state users see on every turn after the first. The first `firstRuns` rounds add a run with an empty
 * cache directory (`AGENT_CHECKPOINT_CACHE_DIR`, removed afterwards): the first run after install or
 * upgrade, which compiles the bundle from source and writes the cache.
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
      const firstRunSamples: ProcessSample[] = [];
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
      const runHook = (extraEnv: Record<string, string> = {}): ProcessSample => {
        run += 1;
        const sample = runMeasured([process.execPath, input.hookBundle, scenario.agent], {
          input: sessionPayload(payload, run),
          cwd: repo.dir,
          env: { ...repo.env, AGENT_CHECKPOINT_STATE_DIR: stateDir, ...extraEnv },
        });
        if (sample.exitCode !== 0) throw new Error(`hook ${scenario.agent} exited ${sample.exitCode}: ${sample.stderr}`);
        return sample;
      };
      const runFirst = (): ProcessSample => {
        const cacheDir = join(input.tempRoot, `code-cache-first-run-${run + 1}`);
        try {
          return runHook({ AGENT_CHECKPOINT_CACHE_DIR: cacheDir });
        } finally {
          rmSync(cacheDir, { recursive: true, force: true });
        }
      };
      // Warm-up: page cache for the bundle, git's index stat data, the transcript tail; writes the code cache.
      const expected = outcomeOf(runHook().stdout);
      runMinimal();
      runMeasured(FLOOR_ARGV, { env: repo.env });
      for (let i = 0; i < runs; i += 1) {
        const forward = i < input.firstRuns ? (['floor', 'minimal', 'hook', 'first'] as const) : (['floor', 'minimal', 'hook'] as const);
        const order = i % 2 === 0 ? forward : [...forward].reverse();
        for (const what of order) {
          if (what === 'floor') floorSamples.push(runMeasured(FLOOR_ARGV, { env: repo.env }));
          else if (what === 'minimal') minimalSamples.push(runMinimal());
          else if (what === 'first') {
            const sample = runFirst();
            // Same answer as with the cache (block for Claude and Codex, deny for Gemini).
            if (outcomeOf(sample.stdout) !== expected) throw new Error(`hook ${scenario.agent} with an empty code cache answered ${outcomeOf(sample.stdout)}, not ${expected}: ${sample.stderr}`);
            firstRunSamples.push(sample);
          }
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
      const firstRun = firstRunSamples.length === 0 ? undefined : toStats(firstRunSamples);
      const minimal = toStats(minimalSamples);
      const designFloorRatio = designFloorRatioOf(hook, minimal);
      cells.push({
        agent: scenario.agent,
        sizeLabel: input.sizeLabel,
        fileBytes: totalBytes,
        changedFiles: repo.changedFiles,
        hook,
        floor,
        minimal,
        wallRatio,
        designFloorRatio,
        rssOverFloorMiB,
        outcomes,
        ...(stderrSample === undefined ? {} : { stderrSample }),
        meetsWall: designFloorRatio <= TARGETS.designFloorRatio,
        meetsRss: rssOverFloorMiB <= TARGETS.rssOverFloorMiB,
        ...(firstRun === undefined
          ? {}
          : { firstRun, firstRunWallRatio: firstRun.wallMs.median / floor.wallMs.median, firstRunDesignFloorRatio: designFloorRatioOf(firstRun, minimal) }),
      });
      input.log(
        `  hook ${scenario.agent} ${input.sizeLabel} ${repo.changedFiles} files: wall ${hook.wallMs.median.toFixed(1)} ms (×${designFloorRatio.toFixed(2)} design floor ${minimal.wallMs.median.toFixed(1)}, ×${wallRatio.toFixed(2)} bare node ${floor.wallMs.median.toFixed(1)}), RSS ${hook.peakRssMiB.median.toFixed(1)} MiB (+${rssOverFloorMiB.toFixed(1)}), ${JSON.stringify(outcomes)}${firstRun === undefined ? '' : `; first run (empty code cache) ${firstRun.wallMs.median.toFixed(1)} ms (×${designFloorRatioOf(firstRun, minimal).toFixed(2)} design floor), ${firstRun.peakRssMiB.median.toFixed(1)} MiB`}`,
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
