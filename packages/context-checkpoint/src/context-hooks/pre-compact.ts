import { stat } from 'node:fs/promises';
import { getCheckpoint, type ResolvedConfig } from '@agent-checkpoint/core';
import { contextCheckpointConfigOf, handoffServicesOf } from '../config/context-config.ts';
import { recordMetric } from '../metrics/record-metric.ts';
import { writePreCompactHandoff } from '../steps/pre-compact-handoff.ts';
import { nothing, type ContextHookDecision, type ContextHookRun } from './context-hook-run.ts';
import { openContextHook } from './open-context-hook.ts';

/** Time kept back from the deadline for the state write and the exit. */
const RESERVE_MS = 500;

/** A PreCompact (Gemini: PreCompress) event. */
export interface PreCompactEvent {
  /** `manual` (/compact) or `auto`. */
  readonly trigger?: string;
  readonly transcriptPath?: string;
}

/**
 * The PreCompact hook: a handoff (trigger `pre-compact`) written before the agent compacts its
 * context, so the structured record survives the lossy summary (`writePreCompactHandoff`); with
 * `directExecution.enabled` the whole direct checkpoint instead. Requires `handoff.enabled`; behind
 * {@link openContextHook}. The turn so far (timeline, git, failures) comes through core's pipeline.
 *
 * Never blocks or alters the compaction: the decision is always `nothing` (Claude would read text on
 * stdout as extra compaction instructions; Codex's PreCompact output schema has no field for us).
 */
export async function runPreCompactHook(event: PreCompactEvent, run: ContextHookRun): Promise<ContextHookDecision> {
  const gate = await openContextHook({ cwd: run.cwd, stateDir: run.stateDir, sessionId: run.sessionId, env: run.env, need: 'handoff' });
  for (const note of gate.diagnostics) run.warn(note);
  if (gate.kind === 'pass') {
    // Success metrics: a compaction with context checkpoints on but no handoff to carry the work.
    if (gate.reason === 'handoffs-disabled' && gate.settings?.context.context.enabled === true) await recordCompaction(run, gate.settings.projectRoot, false);
    return nothing(gate.reason, gate.detail);
  }
  const { projectRoot, config, context } = gate.settings;

  // The turn so far (timeline, git, failures) through the shared pipeline, without the opt-ins: this
  // is not a turn end, so no test run and no context step.
  const reader = await run.loadTranscriptReader();
  const located =
    event.transcriptPath ??
    (await reader.locateTranscript({ ...(run.sessionId !== undefined ? { sessionId: run.sessionId } : {}), cwd: run.cwd, env: run.env }));
  const path = located !== undefined && (await isRegularFileOrMissing(located)) ? located : undefined;
  const budget = Math.max(0, run.deadlineAt - Date.now() - RESERVE_MS);
  const signal = AbortSignal.timeout(budget);
  const outcome = await getCheckpoint({
    agent: run.agent,
    cwd: run.cwd,
    ...(path !== undefined ? { transcript: { reader, path } } : {}),
    ...(run.sessionId !== undefined ? { sessionId: run.sessionId } : {}),
    config: withoutOptIns(config),
    env: run.env,
    signal,
    deadlineAt: Date.now() + budget,
  });
  for (const note of outcome.diagnostics) run.debug(`pre-compact: ${note}`);

  const step = await writePreCompactHandoff({
    agent: run.agent,
    sessionId: run.sessionId,
    outcome,
    cwd: run.cwd,
    config: context,
    services: handoffServicesOf(config),
    auto: event.trigger === 'auto',
    stateDir: run.stateDir,
    now: run.now(),
    env: run.env,
    signal,
  });
  for (const note of step.warnings) run.warn(note);
  await recordCompaction(run, projectRoot, step.code === 'written');
  return nothing(step.code, step.detail);
}

/** Record the compaction in the success metrics (`handoffBefore`: a handoff preserved the work); best effort. */
async function recordCompaction(run: ContextHookRun, projectRoot: string, handoffBefore: boolean): Promise<void> {
  const note = await recordMetric({ stateDir: run.stateDir, projectRoot }, { type: 'compaction', at: run.now().toISOString(), handoffBefore });
  if (note !== undefined) run.warn(`pre-compact: ${note}`);
}

/** The configuration with the turn-end opt-ins off (the pipeline then only reads). */
export function withoutOptIns(config: ResolvedConfig): ResolvedConfig {
  const { runTests: _tests, ...sections } = config.sections ?? {};
  const cc = contextCheckpointConfigOf(config);
  return { ...config, sections: { ...sections, context: { ...cc, context: { ...cc.context, enabled: false } } } };
}

/** A FIFO or device transcript would block the tail read: such paths are dropped (a missing file is kept). */
async function isRegularFileOrMissing(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return true;
  }
}
