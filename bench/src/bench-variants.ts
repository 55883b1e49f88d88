import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { payloadFor, type AgentScenario } from './bench-scenarios.ts';
import type { BenchRepo } from './bench-hook.ts';
import { finalTurnText, withFinalTurn, type CachedTranscript } from './generate-transcript.ts';
import { buildSnapshot, buildVariant, outputBytes, pathBytes, shippedOptions, stubZodLocales, writeCodeCacheLauncher } from './hook-builds.ts';
import { runMeasured, type ProcessSample } from './measure-process.ts';
import { FLOOR_ARGV, toStats } from './process-stats.ts';
import type { BenchPaths } from './repo-root.ts';
import type { VariantResult } from './results.ts';

export interface VariantsInput {
  readonly paths: BenchPaths;
  readonly scenario: AgentScenario;
  readonly transcript: CachedTranscript;
  readonly repo: BenchRepo;
  readonly tempRoot: string;
  readonly runs: number;
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
  await add('zod-locales-stub', "zod's unused locale index replaced by an empty module", 'bundling', single('zod-locales-stub', { ...base, plugins: [stubZodLocales] }));
  await add('split', 'splitting: lazily imported modules (readers, config schema, commands) in chunk files', 'bundling', split('split', base));
  await add('split+locales-stub', 'splitting and the zod locale stub', 'bundling', split('split-locales-stub', { ...base, plugins: [stubZodLocales] }));
  await add('cjs-script', 'entry without top-level await, bundled as CommonJS', 'proposal', single('cjs-script', cjsBase, 'agent-checkpoint-hook.cjs'));
  const cjsFile = join(out, 'cjs', 'agent-checkpoint-hook.cjs');
  await add('cjs+code-cache', 'CommonJS bundle run through vm.Script with a V8 code cache file (kept per node version)', 'proposal', async () => {
    const meta = await buildVariant({ ...cjsBase, plugins: [stubZodLocales], outfile: cjsFile });
    const launcher = join(out, 'cjs', 'agent-checkpoint-hook.mjs');
    writeCodeCacheLauncher(cjsFile, launcher);
    return { argv: [process.execPath, launcher], bytes: outputBytes(meta) };
  });
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
    const runOne = (variant: Variant, payload: string): ProcessSample => {
      const stateDir = mkdtempSync(join(input.tempRoot, 'variant-state-'));
      try {
        return runMeasured([...variant.argv, agent], { input: payload, cwd: input.repo.dir, env: { ...input.repo.env, AGENT_CHECKPOINT_STATE_DIR: stateDir } });
      } finally {
        rmSync(stateDir, { recursive: true, force: true });
      }
    };
    const live = variants.filter((v) => v.error === undefined);
    const samples = new Map(live.map((v) => [v.name, { escape: [] as ProcessSample[], full: [] as ProcessSample[], sameOutput: true }]));
    const floor: ProcessSample[] = [];
    const reference = runOne(variants[0] as Variant, fullPayload).stdout;
    for (const variant of live) {
      // Warm-up (and, for the code cache, the run that writes it).
      runOne(variant, escapePayload);
      runOne(variant, fullPayload);
    }
    for (let i = 0; i < input.runs; i += 1) {
      floor.push(runMeasured(FLOOR_ARGV));
      // Rotate the order each round so no variant always runs right after another.
      const order = live.map((_, k) => live[(k + i) % live.length] as Variant);
      for (const variant of order) {
        const entry = samples.get(variant.name);
        if (entry === undefined) continue;
        const escape = runOne(variant, escapePayload);
        const full = runOne(variant, fullPayload);
        entry.escape.push(escape);
        entry.full.push(full);
        if (escape.stdout !== '' || full.stdout !== reference || escape.exitCode !== 0 || full.exitCode !== 0) entry.sameOutput = false;
      }
    }
    const floorStats = toStats(floor);
    const results: VariantResult[] = variants.map((variant) => {
      const entry = samples.get(variant.name);
      const escapeHatch = toStats(entry?.escape ?? []);
      const fullRun = toStats(entry?.full ?? []);
      const result: VariantResult = {
        name: variant.name,
        description: variant.description,
        kind: variant.kind,
        bytes: variant.bytes,
        escapeHatch,
        fullRun,
        floor: floorStats,
        sameOutput: entry?.sameOutput ?? false,
        ...(variant.error === undefined ? {} : { error: variant.error }),
      };
      log(
        variant.error !== undefined
          ? `  variant ${variant.name}: failed to build: ${variant.error}`
          : `  variant ${variant.name}: ${(variant.bytes / 1024).toFixed(0)} KiB, escape ${escapeHatch.wallMs.median.toFixed(1)} ms, full ${fullRun.wallMs.median.toFixed(1)} ms, RSS ${fullRun.peakRssMiB.median.toFixed(1)} MiB (bare ${floorStats.wallMs.median.toFixed(1)} ms), same output ${result.sameOutput}`,
      );
      return result;
    });
    return results;
  });
}
