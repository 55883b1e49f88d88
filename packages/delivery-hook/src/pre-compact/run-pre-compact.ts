import { stat } from 'node:fs/promises';
import {
  executeCheckpoint,
  failuresFromObservations,
  readContextLevel,
  writeHandoff,
  type HandoffTrigger,
} from '@agent-checkpoint/context-checkpoint';
import {
  contextCheckpointConfigOf,
  getCheckpoint,
  loadConfig,
  readOffSwitch,
  updateSessionState,
  type ResolvedConfig,
} from '@agent-checkpoint/core';
import type { AuxHookContext, AuxHookResult } from '../aux-hook/run-aux-hook.ts';
import { readContextHookPayload } from '../aux-hook/read-context-hook-payload.ts';
import { loadTranscriptReader } from '../load-transcript-reader.ts';
import { chooseRunCwd } from '../run-cwd.ts';

/** The compaction events this handler accepts (Gemini calls it PreCompress). */
const EVENTS = new Set(['PreCompact', 'PreCompress']);
/** Time kept back from the deadline for the state write and the exit. */
const RESERVE_MS = 500;

/**
 * `agent-checkpoint-hook pre-compact <agent>`: write a handoff (trigger `pre-compact`) before the
 * agent compacts its context, so the structured record survives the lossy summary; with
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

  const loaded = await loadConfig({ cwd, env: context.env });
  for (const note of loaded.diagnostics) context.log.warn(`config: ${note}`);
  if (!loaded.config.enabled) return pass('disabled', '"enabled": false');
  const cc = contextCheckpointConfigOf(loaded.config);
  if (!cc.handoff.enabled) return pass('handoffs-disabled', 'handoff.enabled is false');

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

  const reading = readContextLevel(outcome.timeline?.tokenUsage, {
    windowTokens: cc.context.windowTokens,
    thresholds: cc.context.thresholds,
  });
  const trigger: HandoffTrigger = {
    kind: 'pre-compact',
    auto: event.trigger === 'auto',
    ...(reading !== undefined && reading.windowSource !== 'unknown' ? { reading } : {}),
  };
  const projectRoot = outcome.git?.kind === 'repo' ? outcome.git.root : cwd;
  const content = {
    ...(event.sessionId !== undefined ? { sessionId: event.sessionId } : {}),
    trigger,
    ...(outcome.timeline ? { timeline: outcome.timeline } : {}),
    failures: failuresFromObservations(outcome.result?.observations ?? [], outcome.timeline),
    ...(cc.handoff.planFile !== undefined ? { planFile: cc.handoff.planFile } : {}),
  };
  const now = context.now();
  let written: string | undefined;
  let detail: string;
  if (cc.directExecution.enabled) {
    const result = await executeCheckpoint({
      projectRoot,
      agent: context.agent,
      handoff: content,
      config: cc.directExecution,
      handoffDir: cc.handoff.dir,
      now,
      env: context.env,
      signal,
    });
    written = result.handoff?.relativePath;
    detail = `direct execution: ${result.status}${result.fallbackReason ? ` (${result.fallbackReason})` : ''}`;
    if (result.status === 'fallback') context.log.warn(`pre-compact: ${detail}`);
  } else {
    const result = await writeHandoff({
      projectRoot,
      data: { ...content, agent: context.agent, projectRoot, ...(outcome.git ? { git: outcome.git } : {}) },
      now,
      dir: cc.handoff.dir,
    });
    if (!result.ok) {
      context.log.warn(`pre-compact: ${result.error}`);
      return pass('write-failed', result.error);
    }
    written = result.handoff.relativePath;
    detail = `wrote ${written}`;
  }
  if (written !== undefined && event.sessionId !== undefined) await rememberHandoff(context, event.sessionId, written, now);
  return pass(written !== undefined ? 'written' : 'not-written', detail);
}

/** The configuration with the turn-end opt-ins off (the pipeline then only reads). */
function withoutOptIns(config: ResolvedConfig): ResolvedConfig {
  const { runTests: _tests, ...rest } = config;
  return config.context ? { ...rest, context: { ...config.context, enabled: false } } : rest;
}

/** Record the handoff in the session's state (status lines show it). Best effort. */
async function rememberHandoff(context: AuxHookContext, sessionId: string, path: string, now: Date): Promise<void> {
  try {
    const result = await updateSessionState(
      { stateDir: context.stateDir, agent: context.agent, sessionId },
      (state) => ({ state: { ...state, context: { ...state.context, handoffPath: path, handoffAt: now.toISOString() }, updatedAt: now.toISOString() }, value: undefined }),
      { lockWaitMs: 1000 },
    );
    for (const note of result.diagnostics) context.log.warn(note);
  } catch (error) {
    context.log.warn(`pre-compact: cannot record the handoff in the session state: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A FIFO or device transcript would block the tail read: such paths are dropped (a missing file is kept). */
async function isRegularFileOrMissing(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return true;
  }
}
