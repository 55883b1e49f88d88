import { build, type BuildOptions } from 'esbuild';
import { appendFileSync, copyFileSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { payloadFor, type AgentScenario } from './bench-scenarios.ts';
import { sessionPayload, type BenchRepo } from './bench-hook.ts';
import { finalTurnText, withFinalTurn, type CachedTranscript } from './generate-transcript.ts';
import { buildHookBin, buildSnapshot, loadBuildHook, pathBytes } from './hook-builds.ts';
import { runMeasured, type ProcessSample } from './measure-process.ts';
import { FLOOR_ARGV, toStats } from './process-stats.ts';
import type { BenchPaths } from './repo-root.ts';
import type { VariantResult } from './results.ts';
import { summarize } from './stats.ts';

export interface VariantsInput {
  readonly paths: BenchPaths;
  readonly scenario: AgentScenario;
  readonly transcript: CachedTranscript;
  readonly repo: BenchRepo;
  /** The repository with many changed files, for the memory-heavy full run. */
  readonly bigRepo: BenchRepo;
  readonly tempRoot: string;
  readonly runs: number;
  /** Only these variants (default all). */
  readonly only?: ReadonlySet<string> | undefined;
  readonly log: (line: string) => void;
}

interface Variant {
  readonly name: string;
  readonly description: string;
  readonly kind: VariantResult['kind'];
  /** Command up to (not including) the agent argument. */
  argv: string[];
  /** Added to the environment of every run. */
  env?: Readonly<Record<string, string>>;
  bytes: number;
  error?: string;
}

/**
 * Ways to start the hook faster or leaner, each measured in the same rounds as the shipped bin and bare
 * node: the shipped bin with its code cache switched off ("setting"), main-bundle esbuild options that
 * build-hook.mjs could adopt as they are, built behind the shipped launcher by build-hook.mjs's own
 * `buildHook` ("bundling"), and forms that need a change elsewhere ("proposal": node flags in the
 * installed hook command, a startup snapshot). Every variant is warmed up first (which writes its code
 * cache: the cache key includes the build and node's flags), so the rounds compare steady states. A
 * variant must print exactly what the shipped bin prints.
 */
export async function benchVariants(input: VariantsInput): Promise<VariantResult[]> {
  const { paths, log } = input;
  const out = join(paths.work, 'variants');
  rmSync(out, { recursive: true, force: true });
  const hook = await loadBuildHook(paths);
  const shippedBytes = statSync(paths.hookMain).size + statSync(paths.hookBundle).size;
  const variants: Variant[] = [
    {
      name: 'shipped',
      description: 'dist/agent-checkpoint-hook.cjs (launcher) running agent-checkpoint-hook-main.cjs through the V8 code cache, as built by build-hook.mjs; size = main bundle + launcher',
      kind: 'bundling',
      argv: [process.execPath, paths.hookBundle],
      bytes: shippedBytes,
    },
  ];
  const add = async (name: string, description: string, kind: Variant['kind'], make: () => Promise<Omit<Variant, 'name' | 'description' | 'kind'>>): Promise<void> => {
    if (input.only !== undefined && !input.only.has(name)) return;
    try {
      variants.push({ name, description, kind, ...(await make()) });
    } catch (error) {
      variants.push({ name, description, kind, argv: [], bytes: 0, error: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error) });
    }
  };
  /** The main bundle built with changed options, behind the shipped launcher (its own build id). */
  const bundling = (name: string, change: (options: BuildOptions) => BuildOptions) => async () => {
    const bin = await buildHookBin(paths, join(out, name), change);
    return { argv: [process.execPath, bin.launcher], bytes: bin.bytes };
  };
  await add('cache off', 'the shipped bin with AGENT_CHECKPOINT_CODE_CACHE=0: the main bundle compiled from source on every run (the form before the code cache)', 'setting', async () => ({
    argv: [process.execPath, paths.hookBundle],
    env: { AGENT_CHECKPOINT_CODE_CACHE: '0' },
    bytes: shippedBytes,
  }));
  await add('no-keep-names', 'main bundle with keepNames: false (no __name() wrappers; stack traces lose names)', 'bundling', bundling('no-keep-names', (o) => ({ ...o, keepNames: false })));
  await add('zod-locales-kept', "main bundle without the stub for zod's unused locale index", 'bundling', bundling('zod-locales-kept', (o) => ({ ...o, plugins: (o.plugins ?? []).filter((p) => p !== hook.stubZodLocales) })));
  // Node/V8 flags in the installed hook command (`node <flags> /abs/agent-checkpoint-hook.cjs <agent>`):
  // they cannot be set from inside the bundle (V8 sizes the heap when the isolate is created).
  const flagged = (flags: string[]) => async () => ({ argv: [process.execPath, ...flags, paths.hookBundle], bytes: shippedBytes });
  await add('flag: --max-semi-space-size=1', 'young generation capped at 1 MiB semi-spaces: more scavenges, less peak RSS', 'proposal', flagged(['--max-semi-space-size=1']));
  await add('flag: --single-threaded-gc', 'no parallel GC helper threads (they compete for the CPU on a busy machine)', 'proposal', flagged(['--single-threaded-gc']));
  await add('flag: --max-semi-space-size=1 --single-threaded-gc', 'both flags', 'proposal', flagged(['--max-semi-space-size=1', '--single-threaded-gc']));
  await add('snapshot', 'V8 startup snapshot of the main bundle (entry bench/src/proposals/hook-entry-script.ts): node --snapshot-blob hook.blob <agent>; the blob only runs on the node binary that built it', 'proposal', async () => {
    const dir = join(out, 'snapshot');
    const entry = join(dir, 'hook-snapshot-entry.cjs');
    const options = hook.mainBundleOptions(entry);
    // A snapshot entry is a plain script: `import.meta.url` (the launcher's wrapper parameter in the
    // shipped bin) comes from a banner instead.
    await build({
      ...options,
      entryPoints: [join(paths.bench, 'src', 'proposals', 'hook-entry-script.ts')],
      define: { ...options.define, 'import.meta.url': '__acSnapshotImportMetaUrl' },
      banner: { js: 'var __acSnapshotImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
      logLevel: 'silent',
    });
    const blob = join(dir, 'agent-checkpoint-hook.blob');
    const warnings = buildSnapshot(entry, blob);
    if (warnings.trim() !== '') log(`  snapshot build warnings: ${warnings.trim().split('\n')[0]}`);
    return { argv: [process.execPath, '--snapshot-blob', blob], bytes: pathBytes(blob) };
  });

  const agent = input.scenario.agent;
  const escapePayload = JSON.stringify({ ...input.scenario.payload, stop_hook_active: true, cwd: input.repo.dir });
  return withFinalTurn(input.transcript, finalTurnText(input.scenario, input.transcript.historyTurns, input.repo.dir, input.repo.home), (path) => {
    const fullPayload = payloadFor(input.scenario, path, input.repo.dir);
    // The same transcript, its final turn pointed at the repository with many changed files.
    const bigTranscript = join(input.tempRoot, 'variant-big-transcript.jsonl');
    copyFileSync(input.transcript.path, bigTranscript);
    truncateSync(bigTranscript, input.transcript.baseBytes);
    appendFileSync(bigTranscript, finalTurnText(input.scenario, input.transcript.historyTurns, input.bigRepo.dir, input.bigRepo.home));
    const bigPayload = payloadFor(input.scenario, bigTranscript, input.bigRepo.dir);
    const stateDir = mkdtempSync(join(input.tempRoot, 'variant-state-'));
    let run = 0;
    const runOne = (variant: Variant, payload: string, repo: BenchRepo = input.repo): ProcessSample => {
      run += 1;
      return runMeasured([...variant.argv, agent], { input: sessionPayload(payload, run), cwd: repo.dir, env: { ...repo.env, AGENT_CHECKPOINT_STATE_DIR: stateDir, ...variant.env } });
    };
    const live = variants.filter((v) => v.error === undefined && (input.only === undefined || input.only.has(v.name)));
    const samples = new Map(live.map((v) => [v.name, { escape: [] as ProcessSample[], full: [] as ProcessSample[], big: [] as ProcessSample[], sameOutput: true }]));
    const floor: ProcessSample[] = [];
    // The message names the session (each run is a new one); compare everything else.
    const normalize = (stdout: string): string => stdout.replace(/-bench-\d+/g, '-bench-N');
    const reference = normalize(runOne(variants[0] as Variant, fullPayload).stdout);
    for (const variant of live) {
      // Warm-up, and the runs that write this variant's code cache (the full run reaches the deepest path).
      runOne(variant, escapePayload);
      runOne(variant, fullPayload);
    }
    for (let i = 0; i < input.runs; i += 1) {
      floor.push(runMeasured(FLOOR_ARGV, { env: input.repo.env }));
      // Rotate the order each round so no variant always runs right after another.
      const order = live.map((_, k) => live[(k + i) % live.length] as Variant);
      for (const variant of order) {
        const entry = samples.get(variant.name);
        if (entry === undefined) continue;
        const escape = runOne(variant, escapePayload);
        const full = runOne(variant, fullPayload);
        const big = runOne(variant, bigPayload, input.bigRepo);
        entry.escape.push(escape);
        entry.full.push(full);
        entry.big.push(big);
        if (big.exitCode !== 0 || !big.stdout.includes('"block"')) entry.sameOutput = false;
        if (escape.stdout !== '' || normalize(full.stdout) !== reference || escape.exitCode !== 0 || full.exitCode !== 0) entry.sameOutput = false;
      }
    }
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(bigTranscript, { force: true });
    const floorStats = toStats(floor);
    const shippedSamples = samples.get('shipped');
    const paired = (mine: readonly ProcessSample[], theirs: readonly ProcessSample[] | undefined): number =>
      theirs === undefined ? Number.NaN : summarize(mine.map((s, i) => s.wallMs / (theirs[i]?.wallMs ?? Number.NaN))).median;
    const results: VariantResult[] = variants.filter((v) => input.only === undefined || input.only.has(v.name)).map((variant) => {
      const entry = samples.get(variant.name);
      const escapeHatch = toStats(entry?.escape ?? []);
      const fullRun = toStats(entry?.full ?? []);
      const bigRun = toStats(entry?.big ?? []);
      const result: VariantResult = {
        name: variant.name,
        description: variant.description,
        kind: variant.kind,
        bytes: variant.bytes,
        escapeHatch,
        fullRun,
        bigRun,
        pairedRatio: {
          escapeHatch: paired(entry?.escape ?? [], shippedSamples?.escape),
          fullRun: paired(entry?.full ?? [], shippedSamples?.full),
          bigRun: paired(entry?.big ?? [], shippedSamples?.big),
        },
        floor: floorStats,
        sameOutput: entry?.sameOutput ?? false,
        ...(variant.error === undefined ? {} : { error: variant.error }),
      };
      log(
        variant.error !== undefined
          ? `  variant ${variant.name}: failed to build: ${variant.error}`
          : `  variant ${variant.name}: ${(variant.bytes / 1024).toFixed(0)} KiB, escape ${escapeHatch.wallMs.median.toFixed(1)} ms, full ${fullRun.wallMs.median.toFixed(1)} ms, RSS ${fullRun.peakRssMiB.median.toFixed(1)} MiB, ${input.bigRepo.changedFiles} files ${bigRun.wallMs.median.toFixed(1)} ms / ${bigRun.peakRssMiB.median.toFixed(1)} MiB (bare ${floorStats.wallMs.median.toFixed(1)} ms), paired vs shipped ×${result.pairedRatio.escapeHatch.toFixed(2)} / ×${result.pairedRatio.fullRun.toFixed(2)} / ×${result.pairedRatio.bigRun.toFixed(2)}, CPU ${escapeHatch.cpuMsMean.toFixed(0)} / ${fullRun.cpuMsMean.toFixed(0)} ms, same output ${result.sameOutput}`,
      );
      return result;
    });
    return results;
  });
}
