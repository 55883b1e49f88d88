// Times the phases of one hook run in this process, with the shipped code paths: module loading,
// configuration, transcript tail read, git snapshot, engine (attribution + heuristics + message) and
// the loop-guard claim. The first run of each phase is what a hook process pays (cold); the warm
// medians show the steady cost without compilation.
//
//   node phase-runner.mjs <agent> <repo> <transcript> <hint JSON> <state dir> [repeats=5]
const t0 = performance.now();
const core = await import('@agent-checkpoint/core');
const tCore = performance.now();
const { isAgentId } = core;

/** One line of JSON on stdout. */
export interface PhaseReport {
  /** `import('@agent-checkpoint/core')` (evaluates every module core's index reaches). */
  readonly importCoreMs: number;
  readonly importReaderMs: number;
  readonly cold: Readonly<Record<PhaseName, number>>;
  readonly warmMedian: Readonly<Record<PhaseName, number>>;
  /** getCheckpoint with the loaded configuration (git ‖ transcript, then the engine), after the phases above ran once. */
  readonly pipelineFirstMs: number;
  readonly pipelineWarmMedianMs: number;
  readonly changedFiles: number;
  readonly attributedFiles: number;
  readonly decision: string;
  readonly mode: string;
}

export type PhaseName = 'config' | 'transcript' | 'git' | 'engine' | 'claim';

async function main(): Promise<void> {
  const [agent, repo, transcript, hintJson, stateDir, repeatsArg = '5'] = process.argv.slice(2);
  if (!isAgentId(agent) || repo === undefined || transcript === undefined || hintJson === undefined || stateDir === undefined) {
    process.stderr.write('usage: phase-runner <agent> <repo> <transcript> <hint JSON> <state dir> [repeats]\n');
    process.exit(64);
  }
  const hint = JSON.parse(hintJson) as import('@agent-checkpoint/core').TurnHint;
  const repeats = Math.max(1, Number(repeatsArg));
  const env = process.env;
  const t1 = performance.now();
  const reader =
    agent === 'claude'
      ? (await import('@agent-checkpoint/transcript-claude')).createClaudeTranscriptReader()
      : agent === 'gemini'
        ? (await import('@agent-checkpoint/transcript-gemini')).createGeminiTranscriptReader()
        : (await import('@agent-checkpoint/transcript-codex')).createCodexTranscriptReader();
  const importReaderMs = performance.now() - t1;

  const samples: Record<PhaseName, number[]> = { config: [], transcript: [], git: [], engine: [], claim: [] };
  const pipeline: number[] = [];
  let changedFiles = 0;
  let attributedFiles = 0;
  let decision = '';
  let mode = '';
  for (let round = 0; round < repeats + 1; round += 1) {
    let t = performance.now();
    const loaded = await core.loadConfig({ cwd: repo, env });
    samples.config.push(performance.now() - t);
    const config = loaded.config;

    t = performance.now();
    const timeline = await reader.readTurn({ transcriptPath: transcript, hint, checkpointPrefix: config.messages.prefix, maxBytes: config.transcriptMaxBytes });
    samples.transcript.push(performance.now() - t);
    const startedAtMs = timeline.startedAt === undefined ? undefined : Date.parse(timeline.startedAt);

    t = performance.now();
    const git = await core.readGitSnapshot(repo, { timeoutMs: config.gitTimeoutMs, ...(startedAtMs === undefined ? {} : { sinceMs: startedAtMs }), env });
    samples.git.push(performance.now() - t);
    if (git.kind !== 'repo') throw new Error(`git snapshot: ${git.kind}`);
    changedFiles = git.files.length;

    t = performance.now();
    const context = { agent, projectRoot: git.root, cwd: repo };
    const files = core.attributeFiles({ snapshot: git, timeline, context, ...(startedAtMs === undefined ? {} : { turnStartMs: startedAtMs }) });
    const result = core.runHeuristics(files, timeline, context, config);
    core.composeMessage(result, files, config, { sessionId: 'bench' });
    samples.engine.push(performance.now() - t);
    attributedFiles = files.length;

    t = performance.now();
    await core.claimCheckpoint({
      stateDir: `${stateDir}/round-${round}`,
      agent,
      sessionId: 'bench',
      turnId: timeline.turnId ?? 'bench-turn',
      stopHookActive: false,
      checkpointsDelivered: timeline.checkpointsDelivered,
      config: config.loopGuard,
      lockWaitMs: 3000,
    });
    samples.claim.push(performance.now() - t);

    t = performance.now();
    const outcome = await core.getCheckpoint({ agent, cwd: repo, transcript: { reader, path: transcript, hint }, sessionId: 'bench', config, env });
    pipeline.push(performance.now() - t);
    decision = outcome.decision;
    mode = outcome.mode;
  }
  const median = (xs: readonly number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
  };
  const names: PhaseName[] = ['config', 'transcript', 'git', 'engine', 'claim'];
  const report: PhaseReport = {
    importCoreMs: tCore - t0,
    importReaderMs,
    cold: Object.fromEntries(names.map((n) => [n, samples[n][0] ?? Number.NaN])) as Record<PhaseName, number>,
    warmMedian: Object.fromEntries(names.map((n) => [n, median(samples[n].slice(1))])) as Record<PhaseName, number>,
    pipelineFirstMs: pipeline[0] ?? Number.NaN,
    pipelineWarmMedianMs: median(pipeline.slice(1)),
    changedFiles,
    attributedFiles,
    decision,
    mode,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

await main();
