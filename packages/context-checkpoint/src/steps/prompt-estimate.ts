import { describeReadFailure, forShellArg, type ResolvedConfig, type TokenUsage } from '@agent-checkpoint/core';
import { contextCheckpointConfigOf } from '../config/context-config.ts';
import { readContextLevel } from '../context/read-context-level.ts';
import { estimateTask, type TaskEstimate } from '../estimate/estimate-task.ts';
import { renderEstimateWarning } from '../estimate/render-estimate.ts';
import { readTaskHistory } from '../estimate/task-history.ts';
import { planShards, shouldSuggestSharding, type ShardPlan } from '../shard/plan-shards.ts';
import { readPlanInScope } from './plan-in-scope.ts';
import { recordPendingEstimate } from './pending-estimate.ts';

/** Window assumed when neither the transcript, the model table nor `context.windowTokens` knows it (Claude's 200k). */
export const FALLBACK_WINDOW_TOKENS = 200_000;
export { MAX_PLAN_FILE_BYTES } from './plan-in-scope.ts';

/** Input of {@link estimatePrompt}. */
export interface PromptEstimateInput {
  /** The submitted prompt (untrusted). */
  readonly prompt: string;
  readonly config: ResolvedConfig;
  /** Repository root (or the cwd outside one): the plan file and the history's project key. */
  readonly projectRoot: string;
  /** core's state directory: task history and the pending estimate. */
  readonly stateDir: string;
  /** The session's newest usage record (`readLatestUsage`); undefined for a fresh session. */
  readonly usage?: TokenUsage;
  /** Without it nothing is recorded for the Stop hook (EST-004 needs the session to join on). */
  readonly sessionId?: string;
  readonly now: Date;
  /**
   * The bin as the agent can run it where this hook runs, one or more shell words (the route decides:
   * a plugin's bin is on no PATH of Gemini's or Codex's shell); default `agent-checkpoint-hook`.
   */
  readonly toolCommand?: string;
}

/** What {@link estimatePrompt} found; JSON-ready. */
export type PromptEstimateResult =
  | { readonly kind: 'disabled' }
  | {
      readonly kind: 'estimated';
      readonly estimate: TaskEstimate;
      readonly window: number;
      readonly windowSource: 'transcript' | 'model-table' | 'config' | 'fallback';
      /** Tokens already in the context. */
      readonly used: number;
      /** The shard file estimated instead of the whole plan, once the plan is sharded. */
      readonly currentShard?: string;
      /** The plan's shard breakdown, when a plan is configured, not yet sharded and over 60 % (SHD-002). */
      readonly shardPlan?: ShardPlan;
      /** The text added to the prompt's context; undefined when the task fits and is ≤ 60 %. */
      readonly warning?: string;
      readonly diagnostics: readonly string[];
    };

/**
 * The estimator at prompt submit (EST-001..003, SHD-002): estimate the prompt's task (issue 21: the
 * prompt, not the plan). The configured plan (`handoff.planFile`; once it is sharded, the current
 * shard) is priced only when the prompt asks for its work (`choosePromptBasis`: "yes" continues the
 * current item, "the plan" or the plan's file name takes all its open items, an item's id or text that
 * item); the project's history corrects the price. Returns a warning
 * when it will not fit the budget left before the handoff level, or is over 60 % of the window (then,
 * with a plan over 60 %, its shard breakdown too). The warning is context for the agent, never a
 * block. Records the estimate for the Stop hook to close (EST-004, {@link recordPendingEstimate}).
 * Cheap when `context.enabled` is off (returns before any read). Never throws: problems are
 * diagnostics.
 */
export async function estimatePrompt(input: PromptEstimateInput): Promise<PromptEstimateResult> {
  const cfg = contextCheckpointConfigOf(input.config);
  if (!cfg.context.enabled) return { kind: 'disabled' };
  const diagnostics: string[] = [];

  const reading = readContextLevel(input.usage, { windowTokens: cfg.context.windowTokens, thresholds: cfg.context.thresholds });
  const known = reading !== undefined && reading.windowSource !== 'unknown' ? reading : undefined;
  const window = known?.contextWindow ?? cfg.context.windowTokens ?? FALLBACK_WINDOW_TOKENS;
  const windowSource = known?.windowSource ?? (cfg.context.windowTokens !== undefined ? 'config' : 'fallback');
  const used = reading?.contextTokens ?? 0;

  // Once the plan is sharded, the task is the current shard (SHD-004), not the whole plan again.
  const scope = cfg.handoff.planFile !== undefined ? readPlanInScope(input.projectRoot, cfg.handoff.planFile, diagnostics) : undefined;
  const shard = scope?.shardFile !== undefined ? { file: scope.shardFile } : undefined;
  const planText = scope?.text;
  const history = await readTaskHistory({ stateDir: input.stateDir, projectRoot: input.projectRoot });
  if (history.problem !== undefined) diagnostics.push(`task history: ${history.problem}`);

  // "Fits" means: finishes before the handoff level, where the session would have to hand off.
  const ceilingPercent = cfg.context.thresholds[cfg.handoff.atLevel === 'L1' ? 'l1' : cfg.handoff.atLevel === 'L3' ? 'l3' : 'l2'];
  const estimate = estimateTask({
    prompt: input.prompt,
    ...(planText !== undefined ? { planText } : {}),
    planFiles: scope?.files ?? [],
    history: history.records,
    window,
    used,
    ceilingPercent,
  });

  // The breakdown only when the prompt asks for the whole plan and it is not sharded yet: "yes" to a
  // question is not a reason to suggest splitting the plan again.
  let shardPlan: ShardPlan | undefined;
  if (planText !== undefined && shard === undefined && estimate.basis.kind === 'plan') {
    const plan = planShards({ planText, budget: { window }, history: history.records });
    if (plan.action === 'must-shard') shardPlan = plan;
  }
  const warn = !estimate.fits || shouldSuggestSharding(estimate);
  const warning = warn ? renderPromptWarning(estimate, shardPlan, cfg.handoff.planFile, input.toolCommand) : undefined;

  if (input.sessionId !== undefined && input.sessionId !== '') {
    try {
      recordPendingEstimate(input.stateDir, input.sessionId, {
        at: input.now.toISOString(),
        features: estimate.features,
        estimatedTokens: estimate.tokens,
        basis: estimate.basis.kind,
        contextTokensAtSubmit: used,
      });
    } catch (error) {
      diagnostics.push(`estimate not recorded: ${describeReadFailure(error)}`);
    }
  }
  return {
    kind: 'estimated',
    estimate,
    window,
    windowSource,
    used,
    ...(shard !== undefined ? { currentShard: shard.file } : {}),
    ...(shardPlan !== undefined ? { shardPlan } : {}),
    ...(warning !== undefined ? { warning } : {}),
    diagnostics,
  };
}

/** The warning text: the estimator's sentence, then the shard breakdown when there is one. */
export function renderPromptWarning(estimate: TaskEstimate, shardPlan: ShardPlan | undefined, planFile: string | undefined, toolCommand = 'agent-checkpoint-hook'): string {
  const lines = [`[agent-checkpoint] ${renderEstimateWarning(estimate) ?? 'This task may not fit the remaining context.'}`];
  if (shardPlan !== undefined && shardPlan.shards.length > 0) {
    lines.push(
      `The plan${planFile !== undefined ? ` (${planFile})` : ''} has ${shardPlan.openItems} open items, ~${Math.round(shardPlan.percentOfWindow)} % of the window: suggested ${shardPlan.shards.length} shards, one per session:`,
    );
    for (const shard of shardPlan.shards) {
      lines.push(`  ${shard.number}. ${shard.title} (${shard.items.length} item${shard.items.length === 1 ? '' : 's'}, ~${Math.round(shard.percentOfWindow)} %)`);
    }
    if (planFile !== undefined) lines.push(`Write them with: ${toolCommand} shard ${forShellArg(planFile)}`);
  }
  lines.push('Tell the user before starting; do not refuse the task.');
  return lines.join('\n');
}
