import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentScenario } from './bench-scenarios.ts';
import { payloadFor } from './bench-scenarios.ts';
import type { BenchRepo } from './bench-hook.ts';
import { attributeProfile, moduleLineMap } from './cpu-profile.ts';
import { finalTurnText, withFinalTurn, type CachedTranscript } from './generate-transcript.ts';
import { buildVariant, bytesByPackage, checkReplica, markEvaluatedModules, moduleCount, outputBytes, shippedOptions } from './hook-builds.ts';
import { runMeasured, type ProcessSample } from './measure-process.ts';
import type { PhaseReport } from './phase-runner.ts';
import { FLOOR_ARGV, toStats } from './process-stats.ts';
import type { BenchPaths } from './repo-root.ts';
import type { PhaseCell, ProfileBreakdown, StartupInfo } from './results.ts';
import { summarize } from './stats.ts';

export interface StartupInput {
  readonly paths: BenchPaths;
  readonly scenarios: ReadonlyMap<string, AgentScenario>;
  readonly transcripts: ReadonlyMap<string, CachedTranscript>;
  readonly sizes: readonly { readonly label: string; readonly bytes: number }[];
  readonly repos: readonly BenchRepo[];
  readonly tempRoot: string;
  readonly runs: number;
  readonly log: (line: string) => void;
}

/** Preload for instrumented runs: records evaluated modules and loaded built-ins at exit. */
const RECORD_PRELOAD = `import { writeFileSync } from 'node:fs';
globalThis.__acBenchModules = [];
process.on('exit', () => {
  const out = process.env.AC_BENCH_RECORD;
  if (out) writeFileSync(out, JSON.stringify({ modules: globalThis.__acBenchModules, builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).length }));
});
`;
/** Preload that prints performance.now() at exit: process start → exit, without spawn/teardown noise. */
const EXIT_TIME_PRELOAD = `process.on('exit', () => process.stderr.write('\\nAC_EXIT_MS=' + performance.now() + '\\n'));\n`;

/**
 * Where the hook's start-up goes: bundle size and contents, modules evaluated per path (is zod loaded
 * without a config file?), built-ins loaded, import time, the escape hatch next to bare node, CPU
 * profiles by component, the hook's own phase timings, and in-process phase timings.
 */
export async function benchStartup(input: StartupInput): Promise<StartupInfo | undefined> {
  const { paths, log } = input;
  const claude = input.scenarios.get('claude') as AgentScenario;
  const first = input.sizes[0];
  const claudeSmall = first === undefined ? undefined : input.transcripts.get(`claude/${first.label}`);
  if (claudeSmall === undefined || first === undefined) return undefined;
  const work = join(paths.work, 'builds');
  mkdirSync(work, { recursive: true });
  const dir = mkdtempSync(join(input.tempRoot, 'startup-'));
  const recordPreload = join(work, 'record-preload.mjs');
  const exitPreload = join(work, 'exit-time-preload.mjs');
  writeFileSync(recordPreload, RECORD_PRELOAD);
  writeFileSync(exitPreload, EXIT_TIME_PRELOAD);

  const replicaMatches = await checkReplica(paths, work);
  const shipped = await buildVariant({ ...shippedOptions(paths), outfile: join(work, 'shipped-replica.mjs') });
  const instrumented = join(work, 'instrumented.mjs');
  const options = shippedOptions(paths);
  await buildVariant({ ...options, outfile: instrumented, plugins: [...(options.plugins ?? []), markEvaluatedModules(paths.root)] });
  const profiled = join(work, 'profile.mjs');
  await buildVariant({ ...shippedOptions(paths), minify: false, outfile: profiled });

  const repo10 = input.repos[0] as BenchRepo;
  const repoBig = input.repos.at(-1) as BenchRepo;
  const userConfig = join(dir, 'user-config.json');
  writeFileSync(userConfig, `${JSON.stringify({ loopGuard: { minTurnSeconds: 0 } }, null, 2)}\n`);
  const escapePayload = JSON.stringify({ ...claude.payload, stop_hook_active: true, cwd: repo10.dir });

  const run = (argv: string[], repo: BenchRepo, payload: string, extraEnv: Record<string, string> = {}): ProcessSample => {
    const stateDir = mkdtempSync(join(dir, 'state-'));
    try {
      const sample = runMeasured(argv, { input: payload, cwd: repo.dir, env: { ...repo.env, AGENT_CHECKPOINT_STATE_DIR: stateDir, ...extraEnv } });
      if (sample.exitCode !== 0) throw new Error(`${argv.join(' ')} exited ${sample.exitCode}: ${sample.stderr}`);
      return sample;
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  };

  return withFinalTurn(claudeSmall, finalTurnText(claude, claudeSmall.historyTurns, repo10.dir, repo10.home), (transcript) => {
    const fullPayload = payloadFor(claude, transcript, repo10.dir);
    // 1. Modules evaluated and built-ins loaded, per path.
    const evaluatedModules: Record<string, StartupInfo['evaluatedModules'][string]> = {};
    const builtinModules: Record<string, number> = {};
    const record = (label: string, argv: string[], payload: string, env: Record<string, string> = {}): void => {
      const out = join(dir, `record-${Object.keys(evaluatedModules).length}.json`);
      run([process.execPath, '--import', recordPreload, ...argv], repo10, payload, { AC_BENCH_RECORD: out, ...env });
      const { modules, builtins } = JSON.parse(readFileSync(out, 'utf8')) as { modules: string[]; builtins: number };
      builtinModules[label] = builtins;
      if (argv[0] !== '-e') {
        evaluatedModules[label] = {
          count: modules.length,
          fullZod: modules.some((m) => /zod\/v4\/classic\//.test(m)),
          jsoncParser: modules.some((m) => /jsonc-parser/.test(m)),
          zodLocales: modules.some((m) => /zod\/v4\/locales\/index\.js$/.test(m)),
        };
      }
    };
    record("bare node -e ''", ['-e', ''], '');
    record('escape hatch (stop_hook_active)', [instrumented, 'claude'], escapePayload);
    record('full run, no config file', [instrumented, 'claude'], fullPayload);
    const cacheHome = join(dir, 'config-cache');
    record('full run, user config (first: validated)', [instrumented, 'claude'], fullPayload, { AGENT_CHECKPOINT_CONFIG: userConfig, XDG_CACHE_HOME: cacheHome });
    record('full run, user config (cached)', [instrumented, 'claude'], fullPayload, { AGENT_CHECKPOINT_CONFIG: userConfig, XDG_CACHE_HOME: cacheHome });
    for (const [label, info] of Object.entries(evaluatedModules)) log(`  evaluated: ${label}: ${info.count} modules, full zod ${info.fullZod}, jsonc-parser ${info.jsoncParser}, zod locales ${info.zodLocales}`);

    // 2. Import time: exit time of `hook version` vs `node -e ''`, both from process start.
    const exitTimes = { hook: [] as number[], floor: [] as number[] };
    const exitMs = (s: ProcessSample): number => Number(/AC_EXIT_MS=([\d.]+)/.exec(s.stderr)?.[1] ?? Number.NaN);
    for (let i = 0; i < input.runs; i += 1) {
      exitTimes.floor.push(exitMs(runMeasured([process.execPath, '--import', exitPreload, '-e', ''], { env: repo10.env })));
      exitTimes.hook.push(exitMs(runMeasured([process.execPath, '--import', exitPreload, paths.hookBundle, 'version'], { env: repo10.env })));
    }
    const importMs = summarize(exitTimes.hook).median - summarize(exitTimes.floor).median;
    log(`  import + evaluate the bundle: ${importMs.toFixed(1)} ms (exit at ${summarize(exitTimes.hook).median.toFixed(1)} vs ${summarize(exitTimes.floor).median.toFixed(1)} ms)`);

    // 3. Escape hatch next to bare node.
    const escapeSamples: ProcessSample[] = [];
    const floorSamples: ProcessSample[] = [];
    for (let i = 0; i < input.runs; i += 1) {
      floorSamples.push(runMeasured(FLOOR_ARGV, { env: repo10.env }));
      escapeSamples.push(run([process.execPath, paths.hookBundle, 'claude'], repo10, escapePayload));
    }
    const escapeHook = toStats(escapeSamples);
    const escapeFloor = toStats(floorSamples);
    const escapeHatch = { hook: escapeHook, floor: escapeFloor, wallRatio: escapeHook.wallMs.median / escapeFloor.wallMs.median };
    log(`  escape hatch: ${escapeHook.wallMs.median.toFixed(1)} ms vs bare ${escapeFloor.wallMs.median.toFixed(1)} ms (×${escapeHatch.wallRatio.toFixed(2)})`);

    // 4. CPU profiles of the unminified build, by component.
    const profiles: ProfileBreakdown[] = [];
    const lineToModule = moduleLineMap(readFileSync(profiled, 'utf8'));
    const profileRuns = Math.max(3, Math.min(7, input.runs));
    const profileCase = (scenario: string, repo: BenchRepo, payload: string): void => {
      const profDir = join(dir, `prof-${profiles.length}`);
      for (let i = 0; i < profileRuns; i += 1) run([process.execPath, '--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-interval', '100', profiled, 'claude'], repo, payload);
      const parts = readdirSync(profDir).map((f) => attributeProfile(join(profDir, f), '/profile.mjs', lineToModule));
      const groups: Record<string, number> = {};
      for (const part of parts) for (const [g, ms] of Object.entries(part.groups)) groups[g] = (groups[g] ?? 0) + ms / parts.length;
      profiles.push({
        scenario,
        wallMs: summarize(parts.map((p) => p.wallMs)).median,
        idleMs: summarize(parts.map((p) => p.idleMs)).median,
        groups: Object.fromEntries(Object.entries(groups).sort((a, b) => b[1] - a[1])),
      });
      log(`  profile ${scenario}: ${Object.entries(groups).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([g, ms]) => `${g} ${ms.toFixed(1)}`).join(', ')}`);
    };
    profileCase('escape hatch', repo10, escapePayload);
    profileCase(`full run, ${first.label}, ${repo10.changedFiles} changed files`, repo10, fullPayload);

    // 5. The hook's own phase timings (debug log), shipped bundle.
    const hookDebugTimings: Record<string, Record<string, number>> = {};
    const debugCase = (label: string, repo: BenchRepo, payload: string): void => {
      const samples: Record<string, number[]> = {};
      for (let i = 0; i < input.runs; i += 1) {
        const stateDir = mkdtempSync(join(dir, 'debug-'));
        runMeasured([process.execPath, paths.hookBundle, 'claude'], { input: payload, cwd: repo.dir, env: { ...repo.env, AGENT_CHECKPOINT_STATE_DIR: stateDir, AGENT_CHECKPOINT_DEBUG: '1' } });
        const lines = readFileSync(join(stateDir, 'debug.log'), 'utf8').trim().split('\n');
        const last = JSON.parse(lines.at(-1) ?? '{}') as { ms?: number; timings?: Record<string, number> };
        for (const [k, v] of Object.entries({ total: last.ms ?? Number.NaN, ...last.timings })) (samples[k] ??= []).push(v);
        rmSync(stateDir, { recursive: true, force: true });
      }
      hookDebugTimings[label] = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v).median]));
      log(`  hook phases ${label}: ${JSON.stringify(hookDebugTimings[label])}`);
    };
    debugCase(`claude ${first.label}, ${repo10.changedFiles} changed files`, repo10, fullPayload);

    // 6. In-process phases per agent, smallest and largest size, both repositories.
    const phases: PhaseCell[] = [];
    for (const [agent, scenario] of input.scenarios) {
      for (const size of new Set([input.sizes[0], input.sizes.at(-1)])) {
        if (size === undefined) continue;
        const cached = input.transcripts.get(`${agent}/${size.label}`);
        if (cached === undefined) continue;
        for (const repo of input.repos) {
          withFinalTurn(cached, finalTurnText(scenario, cached.historyTurns, repo.dir, repo.home), (path) => {
            const stateDir = mkdtempSync(join(dir, 'phase-'));
            const sample = runMeasured([process.execPath, join(paths.bin, 'phase-runner.mjs'), agent, repo.dir, path, JSON.stringify(scenario.hint), stateDir, '5'], { env: repo.env, cwd: repo.dir });
            rmSync(stateDir, { recursive: true, force: true });
            if (sample.exitCode !== 0) throw new Error(`phase-runner: ${sample.stderr}`);
            const report = JSON.parse(sample.stdout.trim()) as PhaseReport;
            phases.push({
              agent: scenario.agent,
              sizeLabel: size.label,
              changedFiles: repo.changedFiles,
              importCoreMs: report.importCoreMs,
              importReaderMs: report.importReaderMs,
              cold: report.cold,
              warmMedian: report.warmMedian,
              pipelineWarmMedianMs: report.pipelineWarmMedianMs,
              mode: report.mode,
            });
            log(`  phases ${agent} ${size.label} ${repo.changedFiles} files: cold ${JSON.stringify(roundAll(report.cold))}, warm ${JSON.stringify(roundAll(report.warmMedian))}, pipeline ${report.pipelineWarmMedianMs.toFixed(1)} ms (${report.mode})`);
          });
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
    void repoBig;
    return {
      bundleBytes: outputBytes(shipped),
      bundledModules: moduleCount(shipped),
      bundleByPackageKiB: bytesByPackage(shipped),
      evaluatedModules,
      builtinModules,
      replicaMatches,
      importMs,
      escapeHatch,
      hookDebugTimings,
      profiles,
      phases,
    };
  });
}

function roundAll(values: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Math.round(v * 10) / 10]));
}
