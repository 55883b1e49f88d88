import { stat } from 'node:fs/promises';
import { executeCheckpoint, failuresFromObservations, writeHandoff, type HandoffTrigger } from '@agent-checkpoint/context-checkpoint';
import { contextCheckpointConfigOf, contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';
import { getCheckpoint, loadConfig, type ResolvedConfig } from '@agent-checkpoint/core';
import { forModelText } from '@agent-checkpoint/core/hot-path';
import { loadTranscriptReader } from '../load-transcript-reader.ts';
import type { MonitorActRequest, MonitorActResult } from './run-post-tool.ts';

/** Time kept back from the deadline for the answer and the exit. */
const RESERVE_MS = 500;

/**
 * The L2/L3 actions of the monitor (loaded only when one is due): load the full, validated
 * configuration, read the turn so far through core's pipeline (as the PreCompact handoff does) and
 *
 * - L2 (`handoff`): write the handoff (trigger `context`) and ask the agent to finish the current step
 *   (or its small task) and hand off; without `handoff.enabled` only ask it to run `/checkpoint`;
 * - L3 (`emergency`): with `directExecution.enabled` run the direct checkpoint (handoff, memory file,
 *   WIP commit); otherwise write the handoff.
 *
 * The user is told what was written or committed. Never throws.
 */
export async function actOnMonitor(request: MonitorActRequest): Promise<MonitorActResult> {
  const warnings: string[] = [];
  const { action } = request;
  const loaded = await loadConfig({ cwd: request.cwd, env: request.env, sections: contextCheckpointSections });
  for (const note of loaded.diagnostics) warnings.push(`post-tool: config: ${note}`);
  const cc = contextCheckpointConfigOf(loaded.config);
  if (!loaded.config.enabled || !cc.context.enabled) return { code: 'disabled', detail: 'disabled by the validated configuration', warnings };
  const alert = action.text;
  const percent = action.reading.displayPercent;

  if (!cc.handoff.enabled && !(action.kind === 'emergency' && cc.directExecution.enabled)) {
    const ask = 'Finish the current step, then run `/checkpoint` to write a handoff before the context runs out.';
    return { context: join(alert, ask), code: `${action.kind}-asked`, detail: 'handoff.enabled is false: asked the agent', warnings };
  }

  const reader = await loadTranscriptReader(request.agent);
  const path = (await isRegularFile(request.transcriptPath)) ? request.transcriptPath : undefined;
  const budget = Math.max(0, request.deadlineAt - Date.now() - RESERVE_MS);
  const signal = AbortSignal.timeout(budget);
  const outcome = await getCheckpoint({
    agent: request.agent,
    cwd: request.cwd,
    ...(path !== undefined ? { transcript: { reader, path } } : {}),
    sessionId: request.sessionId,
    config: withoutOptIns(loaded.config),
    env: request.env,
    signal,
    deadlineAt: Date.now() + budget,
  });
  const trigger: HandoffTrigger = { kind: 'context', reading: action.reading };
  const projectRoot = outcome.git?.kind === 'repo' ? outcome.git.root : request.cwd;
  const content = {
    sessionId: request.sessionId,
    trigger,
    ...(outcome.timeline ? { timeline: outcome.timeline } : {}),
    failures: failuresFromObservations(outcome.result?.observations ?? [], outcome.timeline),
    ...(cc.handoff.planFile !== undefined ? { planFile: cc.handoff.planFile } : {}),
  };

  if (action.kind === 'emergency' && cc.directExecution.enabled) {
    const result = await executeCheckpoint({
      projectRoot,
      agent: request.agent,
      handoff: content,
      config: cc.directExecution,
      handoffDir: cc.handoff.dir,
      now: request.now,
      env: request.env,
      signal,
    });
    const written = result.handoff?.relativePath;
    const commit = result.commit ? ` WIP commit ${result.commit.sha.slice(0, 7)} created.` : '';
    if (result.status === 'fallback') {
      warnings.push(`post-tool: direct execution fell back (${result.fallbackReason ?? 'unknown'})`);
      const ask = 'The automatic checkpoint failed: stop now and run `/checkpoint`.';
      return { context: join(alert, ask), userMessage: `agent-checkpoint: context at ${percent}%; the emergency checkpoint failed (${result.fallbackReason ?? 'unknown'}).`, code: 'emergency-fallback', detail: result.fallbackReason ?? '', warnings };
    }
    const where = written !== undefined ? `Handoff written to ${written}.` : '';
    return {
      context: join(alert, `${where}${commit} Stop here; the next session resumes from the handoff.`),
      userMessage: `agent-checkpoint: context at ${percent}% (L3). ${where}${commit}`.trim(),
      code: 'emergency-executed',
      detail: `direct execution: ${result.status}`,
      warnings,
    };
  }

  const result = await writeHandoff({
    projectRoot,
    data: { ...content, agent: request.agent, projectRoot, ...(outcome.git ? { git: outcome.git } : {}) },
    now: request.now,
    dir: cc.handoff.dir,
  });
  if (!result.ok) {
    warnings.push(`post-tool: cannot write the handoff: ${result.error}`);
    return { context: join(alert, 'Finish the current step, then run `/checkpoint`.'), code: 'write-failed', detail: result.error, warnings };
  }
  const written = result.handoff.relativePath;
  const ask =
    action.kind === 'emergency'
      ? `Handoff written to ${written}. Stop here; the next session resumes from it.`
      : action.timing === 'after-task'
        ? `Handoff written to ${written}. Finish the current task, then stop and hand off (update the handoff's next steps if they changed).`
        : `Handoff written to ${written}. Finish the current step, then stop and hand off (update the handoff's next steps if they changed).`;
  return {
    context: join(alert, ask),
    userMessage: `agent-checkpoint: context at ${percent}% (${action.level}); handoff written to ${forModelText(written)}.`,
    code: `${action.kind}-written`,
    detail: `wrote ${written}`,
    warnings,
  };
}

function join(alert: string | undefined, ask: string): string {
  return alert === undefined ? ask : `${alert}\n${ask}`;
}

/** The configuration with the turn-end opt-ins off (the pipeline then only reads). */
function withoutOptIns(config: ResolvedConfig): ResolvedConfig {
  const { runTests: _tests, ...sections } = config.sections ?? {};
  const cc = contextCheckpointConfigOf(config);
  return { ...config, sections: { ...sections, context: { ...cc, context: { ...cc.context, enabled: false } } } };
}

/** A FIFO or device transcript would block the read. */
async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
