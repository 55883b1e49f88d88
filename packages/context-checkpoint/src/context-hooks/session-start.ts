import { forModelText } from '@agent-checkpoint/core';
import { memorySettingsOf } from '../config/context-config.ts';
import { claimResumeHandoff } from '../steps/resume-handoff.ts';
import { recordSessionResume } from '../steps/resume-outcome.ts';
import { nothing, type ContextHookDecision, type ContextHookRun } from './context-hook-run.ts';
import { openContextHook } from './open-context-hook.ts';

/** A SessionStart event: why the session starts (`startup`, `resume`, `clear`, `compact`), if said. */
export interface SessionStartEvent {
  readonly source?: string;
}

/**
 * The SessionStart hook: when a recent handoff exists that no session has received yet, add it to
 * the starting session's context (pointer sentences + the document).
 *
 * Requires `handoff.enabled` (like every handoff feature); behind {@link openContextHook}. Any source
 * (`startup`, `resume`, `clear`, `compact`) may receive it: after a compaction it restores the pointer
 * the PreCompact handoff left. Each handoff is injected once, and only one this installation wrote
 * (see `claimResumeHandoff`); a foreign one is named in one line, never injected.
 */
export async function runSessionStartHook(event: SessionStartEvent, run: ContextHookRun): Promise<ContextHookDecision> {
  const gate = await openContextHook({ cwd: run.cwd, stateDir: run.stateDir, sessionId: run.sessionId, env: run.env, need: 'handoff' });
  for (const note of gate.diagnostics) run.warn(note);
  if (gate.kind === 'pass') return nothing(gate.reason, gate.detail);
  const { projectRoot, config, context } = gate.settings;

  const claim = await claimResumeHandoff({
    projectRoot,
    stateDir: run.stateDir,
    dir: context.handoff.dir,
    now: run.now(),
    agent: run.agent,
    ...(run.sessionId !== undefined ? { sessionId: run.sessionId } : {}),
    memory: memorySettingsOf(config),
  });
  // A handoff we did not write (committed with a clone, planted, edited since): one line naming it, to
  // the user (stderr) and the model, never its content.
  if (claim.notice !== undefined) run.warn(`session-start: ${claim.notice}`);
  if (claim.kind === 'none') {
    if (claim.reason === 'unwritable') run.warn(`session-start: ${claim.detail}`);
    if (claim.notice !== undefined && claim.reason === 'no-handoff') {
      return { kind: 'add-context', text: forModelText(claim.notice), code: 'foreign-handoff', detail: claim.notice };
    }
    return nothing(claim.reason, claim.detail);
  }
  // Counted in the metrics and kept in the session's slot until its outcome is known (the resume outcome).
  const notes = await recordSessionResume({ stateDir: run.stateDir, projectRoot, agent: run.agent, ...(run.sessionId !== undefined ? { sessionId: run.sessionId } : {}), handoffName: claim.handoff.name, now: run.now() });
  for (const note of notes) run.warn(`session-start: ${note}`);
  return { kind: 'add-context', text: claim.context, code: 'injected', detail: `${claim.handoff.relativePath} (${event.source ?? 'unknown source'})` };
}
