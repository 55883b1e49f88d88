import { appendFileSync, copyFileSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { payloadFor, type AgentScenario } from './bench-scenarios.ts';
import { sessionPayload, type BenchRepo } from './bench-hook.ts';
import { finalTurnText, withFinalTurn, type CachedTranscript } from './generate-transcript.ts';
import { buildSnapshot, buildVariant, outputBytes, pathBytes, shippedOptions, writeCodeCacheLauncher } from './hook-builds.ts';
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
  readonly kind: 'bundling' | 'proposal';
  /** Command up to (not including) the agent argument. */
  argv: string[];
  bytes: number;
  error?: string;
}

/**
 * Ways to start the hook faster, each measured in the same rounds as the shipped bundle and bare node:
 * esbuild options that build-hook.mjs could adopt as they are ("bundling"), and forms that need the
 * entry without top-level await ("proposal": a CommonJS script with a V8 code cache, a startup
 * snapshot). A variant must print exactly what the shipped bundle prints.
 */
export async function benchVariants(input: VariantsInput): Promise<VariantResult[]> {
  const { paths, log } = input;
  const out = join(paths.work, 'variants');
  const base = shippedOptions(paths);
  const proposalEntry = join(paths.bench, 'src', 'proposals', 'hook-entry-script.ts');
  const { banner: _esmBanner, ...withoutBanner } = base;
  const cjsBase = { ...withoutBanner, entryPoints: [proposalEntry], format: 'cjs' as const };
  const variants: Variant[] = [{ name: 'shipped', description: 'dist/agent-checkpoint-hook.mjs as built by build-hook.mjs', kind: 'bundling', argv: [process.execPath, paths.hookBundle], bytes: statSync(paths.hookBundle).size }];
  const add = async (name: string, description: string, kind: Variant['kind'], make: () => Promise<{ argv: string[]; bytes: number }>): Promise<void> => {
    // The code-cache variant's bundle is also the snapshot's input: build it when either is wanted.
    const wanted = input.only === undefined || input.only.has(name) || (name === 'cjs+code-cache' && input.only.has('snapshot'));
    if (!wanted) return;
    try {
      variants.push({ name, description, kind, ...(await make()) });
    } catch (error) {
      variants.push({ name, description, kind, argv: [], bytes: 0, error: error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error) });
    }
  };
  const single = (name: string, options: Parameters<typeof buildVariant>[0], file = 'agent-checkpoint-hook.mjs') => async () => {
    const outfile = join(out, name, file);
    const meta = await buildVariant({ ...options, outfile });
    return { argv: [process.execPath, outfile], bytes: outputBytes(meta) };
  };
  const split = (name: string, options: Parameters<typeof buildVariant>[0]) => async () => {
    const outdir = join(out, name);
    rmSync(outdir, { recursive: true, force: true });
    const { outfile: _ignored, ...rest } = options;
    const meta = await buildVariant({ ...rest, entryPoints: { 'agent-checkpoint-hook': (base.entryPoints as string[])[0] as string }, outdir, splitting: true, chunkNames: 'chunks/[name]-[hash]', outExtension: { '.js': '.mjs' } });
    return { argv: [process.execPath, join(outdir, 'agent-checkpoint-hook.mjs')], bytes: outputBytes(meta) };
  };
  await add('no-keep-names', 'keepNames: false (no __name() wrappers)', 'bundling', single('no-keep-names', { ...base, keepNames: false }));
  await add('zod-locales-kept', "without the stub for zod's unused locale index (build-hook.mjs before this change)", 'bundling', single('zod-locales-kept', { ...base, plugins: [] }));
  await add('split', 'splitting: lazily imported modules (readers, config schema, commands) in chunk files next to the entry', 'bundling', split('split', base));
  await add('cjs-script', 'entry without top-level await, bundled as CommonJS', 'proposal', single('cjs-script', cjsBase, 'agent-checkpoint-hook.cjs'));
  const cjsFile = join(out, 'cjs', 'agent-checkpoint-hook.cjs');
  await add('cjs+code-cache', 'CommonJS bundle run through vm.Script with a V8 code cache file (kept per node version)', 'proposal', async () => {
    const meta = await buildVariant({ ...cjsBase, outfile: cjsFile });
    const launcher = join(out, 'cjs', 'agent-checkpoint-hook.mjs');
    writeCodeCacheLauncher(cjsFile, launcher);
    return { argv: [process.execPath, launcher], bytes: outputBytes(meta) };
  });
  // Node/V8 flags in the installed hook command (`node <flags> /abs/agent-checkpoint-hook.mjs <agent>`):
  // they cannot be set from inside the bundle (V8 sizes the heap when the isolate is created).
  const flagged = (flags: string[]) => async () => ({ argv: [process.execPath, ...flags, paths.hookBundle], bytes: statSync(paths.hookBundle).size });
  await add('flag: --max-semi-space-size=1', 'young generation capped at 1 MiB semi-spaces: more scavenges, less peak RSS', 'proposal', flagged(['--max-semi-space-size=1']));
  await add('flag: --single-threaded-gc', 'no parallel GC helper threads (they compete for the CPU on a busy machine)', 'proposal', flagged(['--single-threaded-gc']));
  await add('flag: --max-semi-space-size=1 --single-threaded-gc', 'both flags', 'proposal', flagged(['--max-semi-space-size=1', '--single-threaded-gc']));
  await add('snapshot', 'V8 startup snapshot of the CommonJS bundle: node --snapshot-blob hook.blob <agent>', 'proposal', async () => {
    const blob = join(out, 'cjs', 'agent-checkpoint-hook.blob');
    const warnings = buildSnapshot(cjsFile, blob);
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
      return runMeasured([...variant.argv, agent], { input: sessionPayload(payload, run), cwd: repo.dir, env: { ...repo.env, AGENT_CHECKPOINT_STATE_DIR: stateDir } });
    };
    const live = variants.filter((v) => v.error === undefined && (input.only === undefined || input.only.has(v.name)));
    const samples = new Map(live.map((v) => [v.name, { escape: [] as ProcessSample[], full: [] as ProcessSample[], big: [] as ProcessSample[], sameOutput: true }]));
    const floor: ProcessSample[] = [];
    // The message names the session (each run is a new one); compare everything else.
    const normalize = (stdout: string): string => stdout.replace(/-bench-\d+/g, '-bench-N');
    const reference = normalize(runOne(variants[0] as Variant, fullPayload).stdout);
    for (const variant of live) {
      // Warm-up (and, for the code cache, the run that writes it).
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
