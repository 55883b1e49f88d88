// `pnpm bench` (from the repository root, after `pnpm install`): builds everything through turbo, then
// measures the hook and tmux routes as whole processes next to a bare `node -e ''` and a naive
// full-file reader, and writes docs/benchmarks.md and bench/results.json.
//
//   node .work/bin/run-benchmarks.mjs [--quick] [--runs=N] [--only=hook,tail,tmux,startup,variants] [--no-write]
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENTS, initialFiles, loadScenario, type AgentScenario } from './bench-scenarios.ts';
import { benchHookSize, ensureDir, type BenchRepo } from './bench-hook.ts';
import { parseBenchOptions, SECTIONS, type BenchOptions } from './bench-options.ts';
import { benchMonitor } from './bench-monitor.ts';
import { benchStartup } from './bench-startup.ts';
import { benchTailRead, runTailReader } from './bench-tail-read.ts';
import { benchTmux } from './bench-tmux.ts';
import { benchVariants } from './bench-variants.ts';
import { ensureTranscript, freeBytes, type CachedTranscript } from './generate-transcript.ts';
import { loadPerCore, readMachineInfo } from './machine-info.ts';
import { droppedNodeVariables, hasGnuTime } from './measure-process.ts';
import { hermeticEnv, makeBenchRepo } from './make-bench-repo.ts';
import { renderBenchmarksMarkdown } from './render-report.ts';
import { benchPaths } from './repo-root.ts';
import { TARGETS, type BenchResults, type HookCell, type NaiveCell, type SectionRun, type TailReadCell } from './results.ts';
import { formatBytes, GiB } from './stats.ts';

const log = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  const paths = benchPaths();
  if (options.renderOnly) {
    const results = readPrevious(paths.resultsJson);
    if (results === undefined) throw new Error(`${paths.resultsJson} is missing or unreadable: run the benchmarks first`);
    writeFileSync(paths.benchmarksMd, renderBenchmarksMarkdown(results, existsSync(paths.benchmarksMd) ? readFileSync(paths.benchmarksMd, 'utf8') : ''));
    log(`rendered ${paths.benchmarksMd} from ${paths.resultsJson}`);
    return;
  }
  const started = Date.now();
  const machine = readMachineInfo();
  const notes: string[] = [];
  const wants = (section: (typeof SECTIONS)[number]): boolean => options.only === undefined || options.only.has(section);
  log(`agent-checkpoint benchmarks (${options.quick ? 'quick' : 'full'}) on ${machine.cpuModel} ×${machine.cores}, node ${machine.node}, load ${machine.loadAverageAtStart.join(' ')}`);
  if (loadPerCore().perCore > 0.5) log(`  note: the machine is busy (load ${loadPerCore().load1} on ${machine.cores} cores); absolute numbers will be noisy`);
  const dropped = droppedNodeVariables();
  if (dropped.length > 0) {
    notes.push(`${dropped.join(', ')} set in the harness's environment: not passed to any measured process (NODE_EXTRA_CA_CERTS alone adds ~85 ms to every node start here; agents that pass it to hooks pay that too).`);
  }
  if (!hasGnuTime()) notes.push('GNU time (/usr/bin/time) is missing: peak RSS comes from a preload reporting getrusage at exit.');
  for (const bundle of [paths.hookBundle]) {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`pnpm build\` first (\`pnpm bench\` from the root does it through turbo)`);
  }
  const bin = (name: string): string => join(paths.bin, `${name}.mjs`);

  const scenarios = new Map<string, AgentScenario>(AGENTS.map((agent) => [agent, loadScenario(paths.fixtures, agent)]));
  const tempRoot = realpathSync(mkdtempSync(join(tmpdir(), 'ac-bench-')));
  const cleanup = (): void => rmSync(tempRoot, { recursive: true, force: true });
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    // Transcripts: cached under bench/.work/transcripts, generated once.
    const sizes = options.sizes.filter((size) => {
      const needed = AGENTS.length * size.bytes;
      const cachedAlready = AGENTS.every((agent) => existsSync(join(paths.transcripts, `${agent}-${slug(size.label)}.jsonl`)));
      if (cachedAlready || freeBytes(paths.transcripts) > needed + GiB) return true;
      const message = `skipped the ${size.label} transcripts: ${formatBytes(needed)} needed, ${formatBytes(freeBytes(paths.transcripts))} free on ${paths.transcripts}`;
      log(`  ${message}`);
      notes.push(message);
      return false;
    });
    const transcripts = new Map<string, CachedTranscript>();
    for (const size of sizes) {
      for (const agent of AGENTS) {
        const cached = ensureTranscript(paths.transcripts, scenarios.get(agent) as AgentScenario, slug(size.label), size.bytes);
        transcripts.set(`${agent}/${size.label}`, cached);
        if (cached.generated) log(`  generated ${agent} ${size.label} (${cached.historyTurns} history turns) in ${(cached.generateMs / 1000).toFixed(1)} s`);
      }
    }

    // Repositories: the recorded scenario's files plus 5,000 tracked files; 10 or 5,000 changed.
    const files = initialFiles(paths.fixtures);
    const repos: BenchRepo[] = options.changedFiles.map((changed) => {
      const root = ensureDir(join(tempRoot, `files-${changed}`));
      const env = hermeticEnv(root);
      const dir = join(root, 'repo');
      makeBenchRepo(dir, files, changed, env);
      return { changedFiles: changed, dir, home: env['HOME'] as string, env };
    });
    const firstRepo = repos[0] as BenchRepo;

    const previous = readPrevious(paths.resultsJson);
    const sections: Record<string, SectionRun> = { ...previous?.sections };
    const section = async <T>(name: (typeof SECTIONS)[number], measure: () => T | Promise<T>): Promise<T> => {
      const at = Date.now();
      const loadAtStart = round2(loadavg()[0] ?? 0);
      const value = await measure();
      sections[name] = { date: new Date(at).toISOString(), mode: options.quick ? 'quick' : 'full', loadAtStart, loadAtEnd: round2(loadavg()[0] ?? 0), seconds: Math.round((Date.now() - at) / 1000) };
      return value;
    };
    let hook: HookCell[] = [];
    let naive: NaiveCell[] = [];
    let tailRead: TailReadCell[] = [];
    if (wants('hook')) {
      log('hook: whole process per agent × transcript size × changed files');
      await section('hook', () => {
        for (const agent of AGENTS) {
          for (const size of sizes) {
            const result = benchHookSize({
              scenario: scenarios.get(agent) as AgentScenario,
              sizeLabel: size.label,
              transcript: transcripts.get(`${agent}/${size.label}`) as CachedTranscript,
              repos,
              hookBundle: paths.hookBundle,
              naiveBundle: bin('naive-read'),
              minimalBundle: bin('minimal-hook'),
              runs: options.runs,
              firstRuns: options.firstRuns,
              naiveRuns: options.naiveRuns(size.bytes),
              tempRoot,
              log,
            });
            hook.push(...result.cells);
            naive.push(result.naive);
          }
        }
      });
    } else {
      hook = [...(previous?.hook ?? [])];
      naive = [...(previous?.naive ?? [])];
    }
    if (wants('tail')) {
      log('tail read: each reader alone, in-process and as a process');
      await section('tail', () => {
        for (const agent of AGENTS) {
          const scenario = scenarios.get(agent) as AgentScenario;
          const reference = runTailReader(bin('tail-read-runner'), scenario, scenario.transcriptFile, 1).report;
          for (const size of sizes) {
            tailRead.push(
              benchTailRead({
                scenario,
                sizeLabel: size.label,
                transcript: transcripts.get(`${agent}/${size.label}`) as CachedTranscript,
                repo: firstRepo,
                env: firstRepo.env,
                runnerBundle: bin('tail-read-runner'),
                runs: options.tailRuns,
                warmReads: options.warmReads,
                reference,
                log,
              }),
            );
          }
        }
      });
    } else tailRead = [...(previous?.tailRead ?? [])];

    const tmux = wants('tmux')
      ? await section('tmux', () => benchTmux({ paths, scenario: scenarios.get('codex') as AgentScenario, transcript: transcripts.get(`codex/${sizes[0]?.label}`), repo: firstRepo, tempRoot, runs: options.tmuxRuns, log }))
      : (previous?.tmux ?? { skipped: 'not measured in this run' });

    const startup = wants('startup')
      ? await section('startup', () => benchStartup({ paths, scenarios, transcripts, sizes, repos, tempRoot, runs: options.runs, log }))
      : previous?.startup;

    const variants = wants('variants')
      ? await section('variants', () => benchVariants({ paths, scenario: scenarios.get('claude') as AgentScenario, transcript: transcripts.get(`claude/${sizes[0]?.label}`) as CachedTranscript, repo: firstRepo, bigRepo: repos.at(-1) as BenchRepo, tempRoot, runs: options.variantRuns, only: options.variants, log }))
      : [...(previous?.variants ?? [])];

    const monitor = wants('monitor')
      ? await section('monitor', () => {
          log('monitor: post-tool after every tool call, disabled and enabled, bin and sh launcher, next to bare node');
          return benchMonitor({ hookBundle: paths.hookBundle, scenario: scenarios.get('claude') as AgentScenario, sizes, transcripts, repoDir: firstRepo.dir, tempRoot, runs: options.runs, log });
        })
      : previous?.monitor;

    const [one = 0, five = 0, fifteen = 0] = loadavg();
    const loadAtEnd: [number, number, number] = [round2(one), round2(five), round2(fifteen)];
    const results: BenchResults = {
      schemaVersion: 1,
      mode: options.quick ? 'quick' : 'full',
      machine,
      loadAverageAtEnd: loadAtEnd,
      noisy: machine.loadAverageAtStart[0] / machine.cores > 0.5 || loadAtEnd[0] / machine.cores > 0.5,
      durationSeconds: Math.round((Date.now() - started) / 1000),
      targets: TARGETS,
      sections,
      notes: [...notes, ...(options.only === undefined ? [] : [`Only ${[...options.only].join(', ')} measured in this run; other sections are from the previous results.json.`])],
      hook,
      naive,
      tailRead,
      tmux,
      ...(startup === undefined ? {} : { startup }),
      variants,
      ...(monitor === undefined ? {} : { monitor }),
    };
    if (options.write) {
      writeFileSync(paths.resultsJson, `${JSON.stringify(results, null, 2)}\n`);
      writeFileSync(paths.benchmarksMd, renderBenchmarksMarkdown(results, existsSync(paths.benchmarksMd) ? readFileSync(paths.benchmarksMd, 'utf8') : ''));
      log(`wrote ${paths.resultsJson} and ${paths.benchmarksMd}`);
    }
    log(`done in ${results.durationSeconds} s; load at end ${loadAtEnd.join(' ')}`);
  } finally {
    cleanup();
  }
}

function readPrevious(path: string): BenchResults | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as BenchResults;
  } catch {
    return undefined;
  }
}

function slug(label: string): string {
  return label.replace(/\s+/g, '').toLowerCase();
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export type { BenchOptions };
await main();
