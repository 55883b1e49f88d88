import { isOwnCheckpoint, type TokenUsage } from '@agent-checkpoint/core';
import { ALERT_BOUNDS } from '../metrics/alert-bounds.ts';
import type { MetricsEvent } from '../metrics/metrics-events.ts';
import { recordMetric } from '../metrics/record-metric.ts';
import { estimatePrompt, type PromptEstimateResult } from '../steps/prompt-estimate.ts';
import { nothing, type ContextHookDecision, type ContextHookRun } from './context-hook-run.ts';
import { openContextHook } from './open-context-hook.ts';

/** A UserPromptSubmit (Gemini: BeforeAgent) event. */
export interface PromptSubmitEvent {
  /** The submitted prompt (Gemini: our own block reason on a continuation after a block). */
  readonly prompt: string;
  readonly transcriptPath?: string;
  /** The command the agent runs for `shard` where this hook was installed (the warning names it). */
  readonly toolCommand: string;
}

/**
 * The UserPromptSubmit hook: with `context.enabled`, estimate the prompt's task (EST-001..003) against
 * the session's context (the transcript's newest usage record) and, when it will not fit before the
 * handoff level or is over 60 % of the window, add a warning to the prompt's context (with a plan's
 * shard breakdown, SHD-002). Never blocks. Records the estimate for the Stop hook (EST-004).
 *
 * Cheap when off: the early check ({@link openContextHook}) decides before the transcript, the history
 * or the plan is read. A continuation whose prompt is our own checkpoint is not a task and is skipped.
 */
export async function runPromptSubmitHook(event: PromptSubmitEvent, run: ContextHookRun): Promise<ContextHookDecision> {
  if (event.prompt.trim() === '') return nothing('no-prompt', 'the payload has no prompt');
  const gate = await openContextHook({ cwd: run.cwd, stateDir: run.stateDir, sessionId: run.sessionId, env: run.env, need: 'context' });
  for (const note of gate.diagnostics) run.warn(note);
  if (gate.kind === 'pass') return nothing(gate.reason, gate.detail);
  const { projectRoot, config } = gate.settings;
  if (isOwnCheckpoint(event.prompt, { delivered: undefined, texts: config.messages })) {
    return nothing('own-checkpoint', 'the prompt is a checkpoint continuation');
  }

  const usage = await latestUsage(run, event.transcriptPath);
  const result = await estimatePrompt({
    prompt: event.prompt,
    config,
    projectRoot,
    stateDir: run.stateDir,
    ...(usage !== undefined ? { usage } : {}),
    ...(run.sessionId !== undefined ? { sessionId: run.sessionId } : {}),
    now: run.now(),
    toolCommand: event.toolCommand,
  });
  if (result.kind === 'disabled') return nothing('context-disabled', 'context.enabled is not true');
  for (const note of result.diagnostics) run.warn(`prompt-submit: ${note}`);
  const summary = `~${result.estimate.tokens} tokens (${result.estimate.percentOfWindow} % of ${result.window}, ${result.windowSource}), ${result.estimate.recommendation}`;
  if (result.warning === undefined) return nothing('fits', summary);
  // Counted once per prompt that gets the warning (the route always delivers it: every agent's
  // prompt hook adds context), so `report` shows the seed's estimate and shard scenarios.
  const note = await recordMetric({ stateDir: run.stateDir, projectRoot }, promptAlertOf(result, run.now()));
  if (note !== undefined) run.warn(`prompt-submit: ${note}`);
  return { kind: 'add-context', text: result.warning, code: 'warned', detail: summary };
}

/** The metrics event of a delivered warning: a shard suggestion when it carries the plan's breakdown, else an estimate warning. */
export function promptAlertOf(result: Extract<PromptEstimateResult, { kind: 'estimated' }>, now: Date): Extract<MetricsEvent, { type: 'alert' }> {
  const at = now.toISOString();
  // A forged plan can price a task at millions of percent of a small window: the alert still counts,
  // without a share the log's schema would refuse.
  const percent = result.estimate.percentOfWindow;
  const share = Number.isFinite(percent) && percent >= 0 && percent <= ALERT_BOUNDS.maxEstimatedPercent ? { estimatedPercent: percent } : {};
  const shards = result.shardPlan?.shards.length ?? 0;
  return shards > 0 ? { type: 'alert', at, kind: 'shard-suggestion', ...share, shards: Math.min(shards, ALERT_BOUNDS.maxShards) } : { type: 'alert', at, kind: 'estimate-warning', ...share };
}

/** The session's newest usage record, or undefined (no transcript yet, unreadable, none recorded). */
async function latestUsage(run: ContextHookRun, transcriptPath: string | undefined): Promise<TokenUsage | undefined> {
  if (transcriptPath === undefined) return undefined;
  try {
    const reader = await run.loadTranscriptReader();
    const found = await reader.readLatestUsage?.({ transcriptPath, history: 1, deadlineAt: run.deadlineAt });
    return found?.usage;
  } catch (error) {
    run.warn(`prompt-submit: transcript usage unreadable: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
