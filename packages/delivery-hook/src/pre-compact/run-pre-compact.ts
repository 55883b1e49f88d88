import { stat } from 'node:fs/promises';
import { recordMetric, writePreCompactHandoff } from '@agent-checkpoint/context-checkpoint';
import { findProjectRoot, getCheckpoint, loadConfig, readOffSwitch, type ResolvedConfig } from '@agent-checkpoint/core';
import type { AuxHookContext, AuxHookResult } from '../aux-hook/run-aux-hook.ts';
import { readContextHookPayload } from '../aux-hook/read-context-hook-payload.ts';
import { loadTranscriptReader } from '../load-transcript-reader.ts';
import { chooseRunCwd } from '../run-cwd.ts';
import { contextCheckpointConfigOf, contextCheckpointSections, handoffServicesOf } from '@agent-checkpoint/context-checkpoint/load';

/** The compaction events this handler accepts (Gemini calls it PreCompress). */
const EVENTS = new Set(['PreCompact', 'PreCompress']);
/** Time kept back from the deadline for the state write and the exit. */
const RESERVE_MS = 500;

/**
 * `agent-checkpoint-hook pre-compact <agent>`: the CLI glue (payload, cwd, off switches, config, the
 * turn so far through core's pipeline) of the context package's `writePreCompactHandoff`: a handoff
 * (trigger `pre-compact`) written before the agent compacts its context, so the structured record survives the lossy summary; with
 * `directExecution.enabled` run the whole direct checkpoint instead. Requires `handoff.enabled`.
 *
 * Never blocks or alters the compaction: stdout stays empty for every agent (Claude would read text
 * on stdout as extra compaction instructions; Codex's PreCompact output schema has no field for us).
 */
export async function runPreCompact(text: string, context: AuxHookContext): Promise<AuxHookResult> {
  const pass = (code: string, detail: string): AuxHookResult => ({ output: '', code, detail });
  const read = readContextHookPayload(text);
  if ('error' in read) {
    context.log.warn(`pre-compact: ${read.error}; doing nothing`);
    return pass('invalid-payload', read.error);
  }
  const event = read.event;
  if (event.eventName !== undefined && !EVENTS.has(event.eventName)) return pass('not-pre-compact', `ignoring ${event.eventName}`);
  const where = chooseRunCwd(event.cwd, context.processCwd);
  if (where.kind === 'none') {
    context.log.warn(`pre-compact: ${where.detail}; doing nothing`);
    return pass('cwd-unusable', where.detail);
  }
  if (where.note !== undefined) context.log.warn(`pre-compact: ${where.note}`);
  const cwd = where.cwd;
  const off = await readOffSwitch({ stateDir: context.stateDir, sessionId: event.sessionId, env: context.env });
  for (const note of off.diagnostics) context.log.warn(note);
  if (off.off) return pass('switched-off', `checkpoints are off (${off.source})`);

  const loaded = await loadConfig({ cwd, env: context.env, sections: contextCheckpointSections });
  for (const note of loaded.diagnostics) context.log.warn(`config: ${note}`);
  if (!loaded.config.enabled) return pass('disabled', '"enabled": false');
  const cc = contextCheckpointConfigOf(loaded.config);
  if (!cc.handoff.enabled) {
    // Success metrics: a compaction with context checkpoints on but no handoff to carry the work.
    if (cc.context.enabled) await recordCompaction(context, cwd, false);
    return pass('handoffs-disabled', 'handoff.enabled is false');
  }

  // The turn so far (timeline, git, failures) through the shared pipeline, without the opt-ins: this
  // is not a turn end, so no test run and no context step.
  const reader = await loadTranscriptReader(context.agent);
  const located =
    event.transcriptPath ??
    (await reader.locateTranscript({ ...(event.sessionId !== undefined ? { sessionId: event.sessionId } : {}), cwd, env: context.env }));
  const path = located !== undefined && (await isRegularFileOrMissing(located)) ? located : undefined;
  const budget = Math.max(0, context.deadlineAt - Date.now() - RESERVE_MS);
  const signal = AbortSignal.timeout(budget);
  const outcome = await getCheckpoint({
    agent: context.agent,
    cwd,
    ...(path !== undefined ? { transcript: { reader, path } } : {}),
    ...(event.sessionId !== undefined ? { sessionId: event.sessionId } : {}),
    config: withoutOptIns(loaded.config),
    env: context.env,
    signal,
    deadlineAt: Date.now() + budget,
  });
  for (const note of outcome.diagnostics) context.log.debug(`pre-compact: ${note}`);

  const step = await writePreCompactHandoff({
    agent: context.agent,
    sessionId: event.sessionId,
    outcome,
    cwd,
    config: cc,
    services: handoffServicesOf(loaded.config),
    auto: event.trigger === 'auto',
    stateDir: context.stateDir,
    now: context.now(),
    env: context.env,
    signal,
  });
  for (const note of step.warnings) context.log.warn(note);
  await recordCompaction(context, cwd, step.code === 'written');
  return pass(step.code, step.detail);
}

/** Record the compaction in the success metrics (`handoffBefore`: a handoff preserved the work); best effort. */
async function recordCompaction(context: AuxHookContext, cwd: string, handoffBefore: boolean): Promise<void> {
  const note = await recordMetric({ stateDir: context.stateDir, projectRoot: findProjectRoot(cwd) }, { type: 'compaction', at: context.now().toISOString(), handoffBefore });
  if (note !== undefined) context.log.warn(`pre-compact: ${note}`);
}

/** The configuration with the turn-end opt-ins off (the pipeline then only reads). */
function withoutOptIns(config: ResolvedConfig): ResolvedConfig {
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
