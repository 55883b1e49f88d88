import { claimResumeHandoff, recordSessionResume } from '@agent-checkpoint/context-checkpoint';
import { findProjectRoot, forModelText, loadConfig, readOffSwitch } from '@agent-checkpoint/core';
import type { AuxHookContext, AuxHookResult } from '../aux-hook/run-aux-hook.ts';
import { readContextHookPayload } from '../aux-hook/read-context-hook-payload.ts';
import { encodeSessionStart } from './encode-session-start.ts';
import { chooseRunCwd } from '../run-cwd.ts';
import { contextCheckpointConfigOf, contextCheckpointSections, memorySettingsOf } from '@agent-checkpoint/context-checkpoint/load';

/**
 * `agent-checkpoint-hook session-start <agent>`: when a recent handoff exists that no session has
 * received yet, add it to the starting session's context (pointer sentences + the document).
 *
 * Requires `handoff.enabled` (like every handoff feature). Honours the off switches. Any source
 * (`startup`, `resume`, `clear`, `compact`) may receive it: after a compaction it restores the pointer
 * the PreCompact handoff left. Each handoff is injected once, and only one this installation wrote
 * (see `claimResumeHandoff`); a foreign one is named in one line, never injected.
 */
export async function runSessionStart(text: string, context: AuxHookContext): Promise<AuxHookResult> {
  const read = readContextHookPayload(text);
  if ('error' in read) {
    context.log.warn(`session-start: ${read.error}; doing nothing`);
    return { output: '', code: 'invalid-payload', detail: read.error };
  }
  const event = read.event;
  if (event.eventName !== undefined && event.eventName !== 'SessionStart') {
    return { output: '', code: 'not-session-start', detail: `ignoring ${event.eventName}` };
  }
  const where = chooseRunCwd(event.cwd, context.processCwd);
  if (where.kind === 'none') {
    context.log.warn(`session-start: ${where.detail}; doing nothing`);
    return { output: '', code: 'cwd-unusable', detail: where.detail };
  }
  if (where.note !== undefined) context.log.warn(`session-start: ${where.note}`);
  const cwd = where.cwd;
  const projectRoot = findProjectRoot(cwd);
  const off = await readOffSwitch({ stateDir: context.stateDir, sessionId: event.sessionId, projectRoot, env: context.env });
  for (const note of off.diagnostics) context.log.warn(note);
  if (off.off) return { output: '', code: 'switched-off', detail: `checkpoints are off (${off.source})` };

  const loaded = await loadConfig({ cwd, env: context.env, sections: contextCheckpointSections });
  for (const note of loaded.diagnostics) context.log.warn(`config: ${note}`);
  if (!loaded.config.enabled) return { output: '', code: 'disabled', detail: '"enabled": false' };
  const { handoff } = contextCheckpointConfigOf(loaded.config);
  if (!handoff.enabled) return { output: '', code: 'handoffs-disabled', detail: 'handoff.enabled is false' };

  const claim = await claimResumeHandoff({
    projectRoot,
    stateDir: context.stateDir,
    dir: handoff.dir,
    now: context.now(),
    agent: context.agent,
    ...(event.sessionId !== undefined ? { sessionId: event.sessionId } : {}),
    memory: memorySettingsOf(loaded.config),
  });
  // A handoff we did not write (committed with a clone, planted, edited since): one line naming it, to
  // the user (stderr) and the model, never its content.
  if (claim.notice !== undefined) context.log.warn(`session-start: ${claim.notice}`);
  if (claim.kind === 'none') {
    if (claim.reason === 'unwritable') context.log.warn(`session-start: ${claim.detail}`);
    if (claim.notice !== undefined && claim.reason === 'no-handoff') {
      return { output: encodeSessionStart(context.agent, forModelText(claim.notice)), code: 'foreign-handoff', detail: claim.notice };
    }
    return { output: '', code: claim.reason, detail: claim.detail };
  }
  // Counted in the metrics and kept in the session's slot until its outcome is known (the resume outcome).
  for (const note of await recordSessionResume({ stateDir: context.stateDir, projectRoot, agent: context.agent, ...(event.sessionId !== undefined ? { sessionId: event.sessionId } : {}), handoffName: claim.handoff.name, now: context.now() })) context.log.warn(`session-start: ${note}`);
  return {
    output: encodeSessionStart(context.agent, claim.context),
    code: 'injected',
    detail: `${claim.handoff.relativePath} (${event.source ?? 'unknown source'})`,
  };
}
