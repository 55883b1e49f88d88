import { estimatePrompt } from '@agent-checkpoint/context-checkpoint';
import { findProjectRoot, isOwnCheckpoint, loadConfig, readOffSwitch, type TokenUsage } from '@agent-checkpoint/core';
import type { AuxHookContext, AuxHookResult } from '../aux-hook/run-aux-hook.ts';
import { readContextHookPayload } from '../aux-hook/read-context-hook-payload.ts';
import { loadTranscriptReader } from '../load-transcript-reader.ts';
import { chooseRunCwd } from '../run-cwd.ts';
import { contextCheckpointConfigOf, contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';
import { encodePromptSubmit } from './encode-prompt-submit.ts';
import { agentToolCommandOf, installRouteOf } from '../route-commands.ts';

const PROMPT_EVENTS: ReadonlySet<string> = new Set(['UserPromptSubmit', 'BeforeAgent']);

/**
 * `agent-checkpoint-hook prompt-submit <agent>` (Claude/Codex UserPromptSubmit, Gemini BeforeAgent):
 * with `context.enabled`, estimate the prompt's task (EST-001..003) against the session's context
 * (the transcript's newest usage record) and, when it will not fit before the handoff level or is
 * over 60 % of the window, add a warning to the prompt's context (with a plan's shard breakdown,
 * SHD-002). Never blocks. Records the estimate for the Stop hook (EST-004).
 *
 * Cheap when off: the config decides before the transcript, the history or the plan is read.
 * Gemini fires BeforeAgent again on a continuation after a block, with our checkpoint as `prompt`:
 * that one is not a task and is skipped.
 */
export async function runPromptSubmit(text: string, context: AuxHookContext): Promise<AuxHookResult> {
  const read = readContextHookPayload(text);
  if ('error' in read) {
    context.log.warn(`prompt-submit: ${read.error}; doing nothing`);
    return { output: '', code: 'invalid-payload', detail: read.error };
  }
  const event = read.event;
  if (event.eventName !== undefined && !PROMPT_EVENTS.has(event.eventName)) {
    return { output: '', code: 'not-prompt-submit', detail: `ignoring ${event.eventName}` };
  }
  if (event.prompt === undefined || event.prompt.trim() === '') return { output: '', code: 'no-prompt', detail: 'the payload has no prompt' };
  const where = chooseRunCwd(event.cwd, context.processCwd);
  if (where.kind === 'none') {
    context.log.warn(`prompt-submit: ${where.detail}; doing nothing`);
    return { output: '', code: 'cwd-unusable', detail: where.detail };
  }
  const cwd = where.cwd;
  const off = await readOffSwitch({ stateDir: context.stateDir, sessionId: event.sessionId, projectRoot: findProjectRoot(cwd), env: context.env });
  for (const note of off.diagnostics) context.log.warn(note);
  if (off.off) return { output: '', code: 'switched-off', detail: `checkpoints are off (${off.source})` };

  const loaded = await loadConfig({ cwd, env: context.env, sections: contextCheckpointSections });
  for (const note of loaded.diagnostics) context.log.warn(`config: ${note}`);
  if (!loaded.config.enabled) return { output: '', code: 'disabled', detail: '"enabled": false' };
  if (!contextCheckpointConfigOf(loaded.config).context.enabled) return { output: '', code: 'context-disabled', detail: 'context.enabled is not true' };
  if (isOwnCheckpoint(event.prompt, { delivered: undefined, texts: loaded.config.messages })) {
    return { output: '', code: 'own-checkpoint', detail: 'the prompt is a checkpoint continuation' };
  }

  const usage = await latestUsage(context, event.transcriptPath);
  const result = await estimatePrompt({
    prompt: event.prompt,
    config: loaded.config,
    projectRoot: findProjectRoot(cwd),
    stateDir: context.stateDir,
    ...(usage !== undefined ? { usage } : {}),
    ...(event.sessionId !== undefined ? { sessionId: event.sessionId } : {}),
    now: context.now(),
    // The shard command in the warning is one the agent can run where this hook was installed.
    toolCommand: agentToolCommandOf(installRouteOf(context.agent, context.env)),
  });
  if (result.kind === 'disabled') return { output: '', code: 'context-disabled', detail: 'context.enabled is not true' };
  for (const note of result.diagnostics) context.log.warn(`prompt-submit: ${note}`);
  const summary = `~${result.estimate.tokens} tokens (${result.estimate.percentOfWindow} % of ${result.window}, ${result.windowSource}), ${result.estimate.recommendation}`;
  if (result.warning === undefined) return { output: '', code: 'fits', detail: summary };
  return { output: encodePromptSubmit(context.agent, result.warning), code: 'warned', detail: summary };
}

/** The session's newest usage record, or undefined (no transcript yet, unreadable, none recorded). */
async function latestUsage(context: AuxHookContext, transcriptPath: string | undefined): Promise<TokenUsage | undefined> {
  if (transcriptPath === undefined) return undefined;
  try {
    const reader = await loadTranscriptReader(context.agent);
    const found = await reader.readLatestUsage?.({ transcriptPath, history: 1, deadlineAt: context.deadlineAt });
    return found?.usage;
  } catch (error) {
    context.log.warn(`prompt-submit: transcript usage unreadable: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
