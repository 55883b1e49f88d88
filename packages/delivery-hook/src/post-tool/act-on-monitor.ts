import { stat } from 'node:fs/promises';
import { failuresFromObservations, openContextHook, recordMetric, truthfulAlert, withAutonomousMode, writeCheckpointHandoff, type HandoffTrigger } from '@agent-checkpoint/context-checkpoint';
import { contextCheckpointConfigOf, handoffServicesOf } from '@agent-checkpoint/context-checkpoint/load';
import { getCheckpoint, type ResolvedConfig } from '@agent-checkpoint/core';
import { forModelText, type AgentId } from '@agent-checkpoint/core/hot-path';
import { loadTranscriptReader } from '../load-transcript-reader.ts';
import { installRouteOf, userCommandsOf } from '../route-commands.ts';
import type { MonitorActRequest, MonitorActResult, MonitorAlertRecord } from './post-tool-types.ts';

/** `checkpoint` as the agent runs it with its shell tool on the route of a hook `agent` ran with `env` (route-commands.ts). */
export function agentCheckpointCommandOf(agent: AgentId, env: Readonly<Record<string, string | undefined>>): string {
  return userCommandsOf(installRouteOf(agent, env)).agentCheckpoint;
}

/**
 * The monitor's L1 warning reached the agent: one `alert` event in the project's metrics log, so
 * `report` shows it (seed 004's L1 scenario). Here, in the acting part, because the metrics schemas
 * need zod, which the decision part must not load after every tool call. Never throws.
 */
export function recordMonitorAlert(record: MonitorAlertRecord): Promise<string | undefined> {
  return recordMetric({ stateDir: record.stateDir, projectRoot: record.projectRoot }, { type: 'alert', at: record.at.toISOString(), kind: 'l1-warning', percent: record.percent });
}

/** Time kept back from the deadline for the answer and the exit. */
const RESERVE_MS = 500;

/**
 * The L2/L3 actions of the monitor (loaded only when one is due): load the full, validated
 * configuration, read the turn so far through core's pipeline (as the PreCompact handoff does) and
 *
 * - L2 (`handoff`): write the handoff (trigger `context`) and ask the agent to finish the current step
 *   (or its small task) and hand off; without `handoff.enabled` only ask it to run `checkpoint` (in the route's form);
 * - L3 (`emergency`): write the handoff and ask the agent to stop;
 * - at both, with `directExecution.enabled`: run the direct checkpoint (handoff, memory file, WIP
 *   commit) instead of writing the handoff only, as the Stop route does at its handoff level, so the
 *   level gets its commit whichever route acts first (the level marks let only one act).
 *
 * Both go through `writeCheckpointHandoff`, as the Stop route and PreCompact do: with `tracker` /
 * `memory` on, the branch's issue goes into the handoff and the tracker comment (state and label at
 * L3) and the claude-mem observation go out after it, within the hook's deadline.
 * The user is told what was written or committed. Never throws.
 */
export async function actOnMonitor(request: MonitorActRequest): Promise<MonitorActResult> {
  const warnings: string[] = [];
  const { action } = request;
  // The context hooks' early check with the full, validated configuration (the gate only probed it).
  const gate = await openContextHook({ cwd: request.cwd, stateDir: request.stateDir, sessionId: request.sessionId, env: request.env, need: 'context' });
  for (const note of gate.diagnostics) warnings.push(`post-tool: ${note}`);
  if (gate.kind === 'pass') return { code: 'disabled', detail: `disabled by the validated configuration (${gate.detail})`, warnings };
  const { config } = gate.settings;
  // A running loop switches direct execution on (seed 003's autonomous mode).
  const cc = withAutonomousMode(gate.settings.context, { stateDir: request.stateDir, projectRoot: gate.settings.projectRoot, now: request.now }).config;
  // Direct execution (handoff, memory file, WIP commit) runs at L2 and L3 alike, as on the Stop route
  // (seed 003/004): the monitor acting first must not leave the level without its commit.
  const direct = cc.directExecution.enabled;
  // Every "run …" names `checkpoint` as the agent runs it on the route this hook was installed by.
  const checkpoint = agentCheckpointCommandOf(request.agent, request.env);
  const alert = action.text === undefined ? undefined : truthfulAlert(action.text.replaceAll('{checkpointCommand}', checkpoint), direct);
  const percent = action.reading.displayPercent;

  if (!cc.handoff.enabled && !direct) {
    const ask = `Finish the current step, then run \`${checkpoint}\` to write a handoff before the context runs out.`;
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
    config: withoutOptIns(config),
    env: request.env,
    signal,
    deadlineAt: Date.now() + budget,
  });
  const trigger: HandoffTrigger = { kind: 'context', reading: action.reading };
  const projectRoot = outcome.git?.kind === 'repo' ? outcome.git.root : request.cwd;
  // The one handoff implementation of every route: with the tracker and claude-mem when they are on,
  // bounded by the hook's deadline (the signal).
  const done = await writeCheckpointHandoff({
    route: 'monitor',
    agent: request.agent,
    projectRoot,
    content: {
      sessionId: request.sessionId,
      trigger,
      ...(outcome.timeline ? { timeline: outcome.timeline } : {}),
      failures: failuresFromObservations(outcome.result?.observations ?? [], outcome.timeline),
      ...(cc.handoff.planFile !== undefined ? { planFile: cc.handoff.planFile } : {}),
    },
    ...(outcome.git ? { git: outcome.git } : {}),
    handoffDir: cc.handoff.dir,
    ...(direct ? { direct: cc.directExecution } : {}),
    services: handoffServicesOf(config),
    level: action.level,
    percent,
    sessionId: request.sessionId,
    stateDir: request.stateDir,
    now: request.now,
    env: request.env,
    signal,
    deadlineAt: Date.now() + budget,
  });
  for (const note of done.diagnostics) warnings.push(`post-tool: ${note}`);

  if (done.kind === 'executed') {
    const result = done.result;
    const written = result.handoff?.relativePath;
    const commit = result.commit ? ` WIP commit ${result.commit.sha.slice(0, 7)} created.` : '';
    if (result.status === 'fallback') {
      warnings.push(`post-tool: direct execution fell back (${result.fallbackReason ?? 'unknown'})`);
      const ask = `The automatic checkpoint failed: stop now and run \`${checkpoint}\`.`;
      return { context: join(alert, ask), userMessage: `agent-checkpoint: context at ${percent}%; the emergency checkpoint failed (${result.fallbackReason ?? 'unknown'}).`, code: 'emergency-fallback', detail: result.fallbackReason ?? '', warnings };
    }
    const where = written !== undefined ? `Handoff written to ${written}.` : '';
    const then = action.kind === 'emergency' ? 'Stop here; the next session resumes from the handoff.' : 'Finish the current step, then stop; the next session resumes from the handoff.';
    return {
      context: join(alert, `${where}${commit} ${then}`),
      userMessage: `agent-checkpoint: context at ${percent}% (${action.level}). ${where}${commit}`.trim(),
      code: `${action.kind}-executed`,
      detail: `direct execution: ${result.status}`,
      warnings,
    };
  }
  if (done.kind === 'failed') {
    warnings.push(`post-tool: cannot write the handoff: ${done.error}`);
    return { context: join(alert, `Finish the current step, then run \`${checkpoint}\`.`), code: 'write-failed', detail: done.error, warnings };
  }
  const written = done.handoff.relativePath;
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
