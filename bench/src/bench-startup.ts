import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { AgentScenario } from './bench-scenarios.ts';
import { payloadFor } from './bench-scenarios.ts';
import type { BenchRepo } from './bench-hook.ts';
import { attributeProfile, moduleLineMap } from './cpu-profile.ts';
import { finalTurnText, withFinalTurn, type CachedTranscript } from './generate-transcript.ts';
import { buildHookBin, bytesByPackage, loadBuildHook, moduleCount, replicaMatchesShipped } from './hook-builds.ts';
import { runMeasured, type ProcessSample } from './measure-process.ts';
import type { PhaseReport } from './phase-runner.ts';
import { FLOOR_ARGV, toStats } from './process-stats.ts';
import type { BenchPaths } from './repo-root.ts';
import type { CodeCacheCases, PhaseCell, ProcessStats, ProfileBreakdown, StartupInfo } from './results.ts';
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
globalThis.__acModules = [];
process.on('exit', () => {
  const out = process.env.AC_BENCH_RECORD;
  if (out) writeFileSync(out, JSON.stringify({ modules: globalThis.__acModules, builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).length }));
});
`;
/** Preload that prints performance.now() at exit: process start → exit, without spawn/teardown noise. */
const EXIT_TIME_PRELOAD = `process.on('exit', () => process.stderr.write('\\nAC_EXIT_MS=' + performance.now() + '\\n'));\n`;

/** The code cache states a start-up case is measured in (see {@link CodeCacheCases}). */
const CACHE_STATES = ['warm', 'miss', 'off'] as const;
type CacheState = (typeof CACHE_STATES)[number];

/**
 * Where the hook's start-up goes: bin size and contents, modules evaluated per path (is zod loaded
 * without a config file?), built-ins loaded, load time, the escape hatch and a full run next to bare
 * node with the V8 code cache warm, missing (first run after install) and off, CPU profiles by
 * component, the hook's own phase timings, and in-process phase timings.
 *
 * The bin is measured as shipped: `node dist/agent-checkpoint-hook.cjs` (the launcher), which runs
 * dist/agent-checkpoint-hook-main.cjs through the cache. The cache key includes node's flags, so every
 * command line (`--cpu-prof …`, `--import …`) gets its own warm-up run before it is measured warm.
 */
export async function benchStartup(input: StartupInput): Promise<StartupInfo | undefined> {
  const { paths, log } = input;
  const claude = input.scenarios.get('claude') as AgentScenario;
  const first = input.sizes[0];
  const claudeSmall = first === undefined ? undefined : input.transcripts.get(`claude/${first.label}`);
  if (claudeSmall === undefined || first === undefined) return undefined;
  const work = join(paths.work, 'builds');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const dir = mkdtempSync(join(input.tempRoot, 'startup-'));
  const recordPreload = join(work, 'record-preload.mjs');
  const exitPreload = join(work, 'exit-time-preload.mjs');
  writeFileSync(recordPreload, RECORD_PRELOAD);
  writeFileSync(exitPreload, EXIT_TIME_PRELOAD);

  // build-hook.mjs's own buildHook, run now: the contents by package, and whether dist/ is current.
  const replica = await buildHookBin(paths, join(work, 'replica'));
  const replicaMatches = replicaMatchesShipped(replica, paths);
  if (!replicaMatches) log('  note: dist/ differs from what build-hook.mjs builds from the sources now (run `pnpm build`)');
  // build-hook.mjs's own marker (src/launcher/hot-path-modules.test.ts counts with it too).
  const marker = (await loadBuildHook(paths)).markEvaluatedModules(paths.root);
  const instrumented = (await buildHookBin(paths, join(work, 'instrumented'), (o) => ({ ...o, plugins: [...(o.plugins ?? []), marker] }))).launcher;
  const profiled = await buildHookBin(paths, join(work, 'profile'), (o) => ({ ...o, minify: false }));

  const repo10 = input.repos[0] as BenchRepo;
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
  // The code cache: a directory warmed once by a full run (a block: the cache then holds the deepest
  // path, as on a user's machine after the first checkpoint), a fresh empty directory per run for a
  // miss, or switched off.
  const warmCache = join(dir, 'code-cache-warm');
  let missCount = 0;
  const withCache = (state: CacheState, measure: (env: Record<string, string>) => ProcessSample): ProcessSample => {
    if (state === 'off') return measure({ AGENT_CHECKPOINT_CODE_CACHE: '0' });
    if (state === 'warm') return measure({ AGENT_CHECKPOINT_CACHE_DIR: warmCache });
    missCount += 1;
    const missDir = join(dir, `code-cache-miss-${missCount}`);
    try {
      return measure({ AGENT_CHECKPOINT_CACHE_DIR: missDir });
    } finally {
      rmSync(missDir, { recursive: true, force: true });
    }
  };

  return withFinalTurn(claudeSmall, finalTurnText(claude, claudeSmall.historyTurns, repo10.dir, repo10.home), (transcript) => {
    const fullPayload = payloadFor(claude, transcript, repo10.dir);
    // 1. Modules evaluated and built-ins loaded, per path.
    const evaluatedModules: Record<string, StartupInfo['evaluatedModules'][string]> = {};
    const builtinModules: Record<string, number> = {};
    const record = (label: string, argv: string[], payload: string, env: Record<string, string> = {}): void => {
      const out = join(dir, `record-${Object.keys(evaluatedModules).length}.json`);
      // The module set does not depend on the code cache; off keeps these runs from writing one.
      run([process.execPath, '--import', recordPreload, ...argv], repo10, payload, { AC_BENCH_RECORD: out, AGENT_CHECKPOINT_CODE_CACHE: '0', ...env });
      const { modules, builtins } = JSON.parse(readFileSync(out, 'utf8')) as { modules: string[]; builtins: number };
      builtinModules[label] = builtins;
      if (argv[0] !== '-e') {
        evaluatedModules[label] = {
          count: modules.length,
          fullZod: modules.some((m) => /zod\/v4\/classic\//.test(m)),
          jsoncParser: modules.some((m) => /jsonc-parser/.test(m)),
          zodLocales: modules.some((m) => m.endsWith('zod/v4/locales/index.js')),
        };
      }
    };
    record("bare node -e ''", ['-e', ''], '');
    record('escape hatch (stop_hook_active)', [instrumented, 'claude'], escapePayload);
    record('full run, no config file', [instrumented, 'claude'], fullPayload);
    const configCache = join(dir, 'config-cache');
    record('full run, user config (first: validated)', [instrumented, 'claude'], fullPayload, { AGENT_CHECKPOINT_CONFIG: userConfig, XDG_CACHE_HOME: configCache });
    record('full run, user config (cached)', [instrumented, 'claude'], fullPayload, { AGENT_CHECKPOINT_CONFIG: userConfig, XDG_CACHE_HOME: configCache });
    for (const [label, info] of Object.entries(evaluatedModules)) log(`  evaluated: ${label}: ${info.count} modules, full zod ${info.fullZod}, jsonc-parser ${info.jsoncParser}, zod locales ${info.zodLocales}`);

    // The warm cache: one full run writes it (coverage: the whole block path).
    run([process.execPath, paths.hookBundle, 'claude'], repo10, fullPayload, { AGENT_CHECKPOINT_CACHE_DIR: warmCache });
    const cacheFiles = existsSync(warmCache) ? readdirSync(warmCache).filter((f) => f.endsWith('.v8cache')) : [];
    const codeCacheBytes = cacheFiles.length === 1 ? statSync(join(warmCache, cacheFiles[0] as string)).size : Number.NaN;
    if (cacheFiles.length !== 1) log(`  note: the warm-up run left ${cacheFiles.length} code cache files in ${warmCache} (expected 1)`);

    // 2. Load time: exit time of `hook version` vs `node -e ''`, both from process start.
    const exitTimes = { warm: [] as number[], off: [] as number[], floor: [] as number[] };
    const exitMs = (s: ProcessSample): number => Number(/AC_EXIT_MS=([\d.]+)/.exec(s.stderr)?.[1] ?? Number.NaN);
    const versionArgv = [process.execPath, '--import', exitPreload, paths.hookBundle, 'version'];
    // `--import` is part of the cache key: warm this command line's own entry first.
    runMeasured(versionArgv, { env: { ...repo10.env, AGENT_CHECKPOINT_CACHE_DIR: warmCache } });
    for (let i = 0; i < input.runs; i += 1) {
      exitTimes.floor.push(exitMs(runMeasured([process.execPath, '--import', exitPreload, '-e', ''], { env: repo10.env })));
      exitTimes.warm.push(exitMs(runMeasured(versionArgv, { env: { ...repo10.env, AGENT_CHECKPOINT_CACHE_DIR: warmCache } })));
      exitTimes.off.push(exitMs(runMeasured(versionArgv, { env: { ...repo10.env, AGENT_CHECKPOINT_CODE_CACHE: '0' } })));
    }
    const floorExit = summarize(exitTimes.floor).median;
    const importMs = summarize(exitTimes.warm).median - floorExit;
    const importMsCacheOff = summarize(exitTimes.off).median - floorExit;
    log(`  load + evaluate the bundle (\`version\`): ${importMs.toFixed(1)} ms with the code cache, ${importMsCacheOff.toFixed(1)} ms without (exit at ${summarize(exitTimes.warm).median.toFixed(1)} / ${summarize(exitTimes.off).median.toFixed(1)} vs ${floorExit.toFixed(1)} ms)`);

    // 3. Escape hatch and full run next to bare node, code cache warm / missing / off, in rotating order.
    const floorSamples: ProcessSample[] = [];
    const caseSamples = { escape: { warm: [], miss: [], off: [] }, full: { warm: [], miss: [], off: [] } } as Record<'escape' | 'full', Record<CacheState, ProcessSample[]>>;
    const combos = (['escape', 'full'] as const).flatMap((path) => CACHE_STATES.map((state) => ({ path, state })));
    for (let i = 0; i < input.runs; i += 1) {
      floorSamples.push(runMeasured(FLOOR_ARGV, { env: repo10.env }));
      for (let k = 0; k < combos.length; k += 1) {
        const { path, state } = combos[(k + i) % combos.length] as (typeof combos)[number];
        const payload = path === 'escape' ? escapePayload : fullPayload;
        caseSamples[path][state].push(withCache(state, (env) => run([process.execPath, paths.hookBundle, 'claude'], repo10, payload, env)));
      }
    }
    const escapeFloor = toStats(floorSamples);
    const casesOf = (path: 'escape' | 'full'): CodeCacheCases => ({ warm: toStats(caseSamples[path].warm), miss: toStats(caseSamples[path].miss), off: toStats(caseSamples[path].off) });
    const codeCache = { floor: escapeFloor, escapeHatch: casesOf('escape'), fullRun: casesOf('full') };
    const escapeHook = codeCache.escapeHatch.warm;
    const escapeHatch = { hook: escapeHook, floor: escapeFloor, wallRatio: escapeHook.wallMs.median / escapeFloor.wallMs.median };
    const describeCases = (cases: CodeCacheCases): string =>
      CACHE_STATES.map((state) => {
        const stats: ProcessStats = cases[state];
        return `${state} ${stats.wallMs.median.toFixed(1)} ms (×${(stats.wallMs.median / escapeFloor.wallMs.median).toFixed(2)}, CPU ${stats.cpuMsMean.toFixed(0)} ms, ${stats.peakRssMiB.median.toFixed(1)} MiB)`;
      }).join(', ');
    log(`  escape hatch: ${describeCases(codeCache.escapeHatch)}; bare node ${escapeFloor.wallMs.median.toFixed(1)} ms, ${escapeFloor.peakRssMiB.median.toFixed(1)} MiB`);
    log(`  full run ${first.label}, ${repo10.changedFiles} files: ${describeCases(codeCache.fullRun)}`);

    // 4. CPU profiles of the unminified build, by component, through its launcher.
    const profiles: ProfileBreakdown[] = [];
    const files = { bundleUrlSuffix: `/${basename(profiled.main)}`, launcherUrlSuffix: `/${basename(profiled.launcher)}`, lineToModule: moduleLineMap(readFileSync(profiled.main, 'utf8')) };
    const profileRuns = Math.max(3, Math.min(7, input.runs));
    const profileCase = (scenario: string, payload: string, state: CacheState, repo: BenchRepo = repo10): void => {
      const profDir = join(dir, `prof-${profiles.length}`);
      const argv = [process.execPath, '--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-interval', '100', profiled.launcher, 'claude'];
      const profCache = join(dir, `code-cache-prof-${profiles.length}`);
      if (state === 'warm') {
        // This exact command line (the profile flags are part of the cache key), warmed by a full run.
        run(argv, repo, repo === repo10 ? fullPayload : payload, { AGENT_CHECKPOINT_CACHE_DIR: profCache });
        rmSync(profDir, { recursive: true, force: true });
      }
      for (let i = 0; i < profileRuns; i += 1) {
        if (state === 'warm') run(argv, repo, payload, { AGENT_CHECKPOINT_CACHE_DIR: profCache });
        else withCache(state, (env) => run(argv, repo, payload, env));
      }
      rmSync(profCache, { recursive: true, force: true });
      const parts = readdirSync(profDir).map((f) => attributeProfile(join(profDir, f), files));
      const groups: Record<string, number> = {};
      const modules: Record<string, number> = {};
      for (const part of parts) for (const [g, ms] of Object.entries(part.groups)) groups[g] = (groups[g] ?? 0) + ms / parts.length;
      for (const part of parts) for (const [m, ms] of Object.entries(part.modules)) modules[m] = (modules[m] ?? 0) + ms / parts.length;
      const topModules = Object.entries(modules).sort((a, b) => b[1] - a[1]).slice(0, 12);
      profiles.push({
        scenario,
        wallMs: summarize(parts.map((p) => p.wallMs)).median,
        idleMs: summarize(parts.map((p) => p.idleMs)).median,
        groups: Object.fromEntries(Object.entries(groups).sort((a, b) => b[1] - a[1])),
        topModules: Object.fromEntries(topModules.map(([m, ms]) => [m, Math.round(ms * 10) / 10])),
      });
      log(`  profile ${scenario}: ${Object.entries(groups).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([g, ms]) => `${g} ${ms.toFixed(1)}`).join(', ')}`);
      log(`    by module: ${topModules.map(([m, ms]) => `${m.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+packages\//, '')} ${ms.toFixed(1)}`).join(', ')}`);
    };
    const fullLabel = `full run, ${first.label}, ${repo10.changedFiles} changed files`;
    profileCase('escape hatch, cache warm', escapePayload, 'warm');
    profileCase(`${fullLabel}, cache warm`, fullPayload, 'warm');

    profileCase(`${fullLabel}, first run (cache miss)`, fullPayload, 'miss');
    profileCase(`${fullLabel}, cache off`, fullPayload, 'off');

    // 5. The hook's own phase timings (debug log, which also records what the code cache did).
    const hookDebugTimings: Record<string, Record<string, number>> = {};
    const debugCase = (label: string, repo: BenchRepo, payload: string, state: CacheState): void => {
      const samples: Record<string, number[]> = {};
      const statuses = new Set<string>();
      for (let i = 0; i < input.runs; i += 1) {
        const stateDir = mkdtempSync(join(dir, 'debug-'));
        withCache(state, (env) => runMeasured([process.execPath, paths.hookBundle, 'claude'], { input: payload, cwd: repo.dir, env: { ...repo.env, AGENT_CHECKPOINT_STATE_DIR: stateDir, AGENT_CHECKPOINT_DEBUG: '1', ...env } }));
        const lines = readFileSync(join(stateDir, 'debug.log'), 'utf8').trim().split('\n');
        const last = JSON.parse(lines.at(-1) ?? '{}') as { ms?: number; timings?: Record<string, number>; codeCache?: string };
        statuses.add(last.codeCache ?? 'unknown');
        for (const [k, v] of Object.entries({ total: last.ms ?? Number.NaN, ...last.timings })) (samples[k] ??= []).push(v);
        rmSync(stateDir, { recursive: true, force: true });
      }
      const fullLabelWithStatus = `${label} (code cache: ${[...statuses].join(', ')})`;
      hookDebugTimings[fullLabelWithStatus] = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v).median]));
      log(`  hook phases ${fullLabelWithStatus}: ${JSON.stringify(hookDebugTimings[fullLabelWithStatus])}`);
    };
    debugCase(`claude ${first.label}, ${repo10.changedFiles} changed files, warm`, repo10, fullPayload, 'warm');
    debugCase(`claude ${first.label}, ${repo10.changedFiles} changed files, first run`, repo10, fullPayload, 'miss');

    // The turn on the repository with the most changed files: git, attribution and globs per file. Its
    // own final turn (the transcript's paths name that repository), written over the one above, which
    // nothing after this point uses.
    const repoMany = input.repos.at(-1) as BenchRepo;
    if (repoMany !== repo10) {
      withFinalTurn(claudeSmall, finalTurnText(claude, claudeSmall.historyTurns, repoMany.dir, repoMany.home), (manyTranscript) =>
        profileCase(`full run, ${first.label}, ${repoMany.changedFiles} changed files, cache warm`, payloadFor(claude, manyTranscript, repoMany.dir), 'warm', repoMany),
      );
    }

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
    const mainBundleBytes = statSync(paths.hookMain).size;
    const launcherBytes = statSync(paths.hookBundle).size;
    return {
      bundleBytes: mainBundleBytes + launcherBytes,
      mainBundleBytes,
      launcherBytes,
      codeCacheBytes,
      bundledModules: moduleCount(replica.metafile),
      bundleByPackageKiB: bytesByPackage(replica.metafile),
      evaluatedModules,
      builtinModules,
      replicaMatches,
      importMs,
      importMsCacheOff,
      escapeHatch,
      codeCache,
      hookDebugTimings,
      profiles,
      phases,
    };
  });
}

function roundAll(values: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Math.round(v * 10) / 10]));
}
