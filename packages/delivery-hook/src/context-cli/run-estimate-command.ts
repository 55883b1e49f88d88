import { join } from 'node:path';
import {
  estimateTask,
  FALLBACK_WINDOW_TOKENS,
  MAX_PLAN_FILE_BYTES,
  readContextLevel,
  readPlanInScope,
  readTaskHistory,
  renderEstimateWarning,
  type TaskEstimate,
} from '@agent-checkpoint/context-checkpoint';
import { STDERR_PREFIX } from '../debug-log.ts';
import { describeReadFailure, readRegularFileSync } from '@agent-checkpoint/core';
import { EXIT_OK } from '@agent-checkpoint/setup-kit';
import { commandFailure, jsonLine, openCommandProject, terminalText, type Write } from './context-cli-support.ts';
import { readCurrentSessionUsage } from './current-session-usage.ts';

/** Options of `estimate`. */
export interface EstimateOptions {
  readonly plan?: string;
  readonly cwd?: string;
  readonly json?: boolean;
}

/**
 * `estimate "<task>"` (EST-001..003): the estimator's answer for a task, against the context of the
 * newest session in this directory (a fresh window when there is none), with the plan file
 * (`--plan`, else `handoff.planFile` as the prompt hook reads it: its current shard once sharded) and the project's history. Works whether or not
 * `context.enabled` is on: it is asked for. Records nothing. What is priced follows the prompt hook's
 * rule (`choosePromptBasis`); `--plan` asks for the plan, so an unrelated task text prices all of it.
 */
export async function runEstimateCommand(task: string, options: EstimateOptions, write: Write): Promise<number> {
  const project = await openCommandProject(options.cwd);
  if (typeof project === 'string') return commandFailure(`estimate: ${project}`);
  const { context, handoff } = project.context;
  const planFile = options.plan ?? handoff.planFile;
  let planText: string | undefined;
  let planFiles: readonly string[] = [];
  if (options.plan !== undefined) {
    try {
      planText = readRegularFileSync(join(project.cwd, options.plan), MAX_PLAN_FILE_BYTES)?.text;
      if (planText === undefined) return commandFailure(`estimate: plan file ${options.plan} not found`);
    } catch (error) {
      return commandFailure(`estimate: plan file ${options.plan}: ${describeReadFailure(error)}`);
    }
    planFiles = [options.plan];
  } else if (handoff.planFile !== undefined) {
    // The configured plan as the prompt hook sees it: its current shard once it is sharded.
    const problems: string[] = [];
    const scope = readPlanInScope(project.projectRoot, handoff.planFile, problems);
    if (scope === undefined) return commandFailure(`estimate: ${problems[0] ?? `plan file ${handoff.planFile} not found`}`);
    for (const note of problems) process.stderr.write(`${STDERR_PREFIX} estimate: ${note}\n`);
    planText = scope.text;
    planFiles = scope.files;
  }
  const session = await readCurrentSessionUsage(project.cwd, process.env);
  const reading = readContextLevel(session?.latest?.usage, { windowTokens: context.windowTokens, thresholds: context.thresholds });
  const window = reading?.windowSource !== undefined && reading.windowSource !== 'unknown' ? reading.contextWindow : (context.windowTokens ?? FALLBACK_WINDOW_TOKENS);
  const used = reading?.contextTokens ?? 0;
  const history = await readTaskHistory({ stateDir: project.stateDir, projectRoot: project.projectRoot });
  // An explicit --plan asks for the plan's work; the configured plan only when the task asks for it,
  // as at prompt submit (the same rule and the same model as `shard`).
  const estimate = estimateTask({
    prompt: task,
    ...(planText !== undefined ? { planText, planFiles } : {}),
    ...(options.plan !== undefined ? { planRequested: true } : {}),
    history: history.records,
    window,
    used,
    ceilingPercent: context.thresholds.l2,
  });
  if (options.json === true) {
    await write(jsonLine({ estimate, window, used, ...(planFile !== undefined ? { planFile } : {}), ...(session ? { session: { agent: session.agent, transcript: session.transcript } } : {}) }));
    return EXIT_OK;
  }
  const lines = [
    `Estimate: ~${estimate.tokens} tokens, ${estimate.percentOfWindow} % of a ${window}-token window (${estimate.band}); ${estimate.remainingPercent} % left before L2${session ? ` (newest session: ${session.agent})` : ' (no session here: a fresh window)'}.`,
    `Recommendation: ${estimate.recommendation}`,
    `Estimated: ${renderBasis(estimate.basis)}`,
    renderEstimateWarning(estimate) ?? 'It fits: proceed.',
    'Why:',
    ...estimate.reasons.map((r) => `  ${r.tokens >= 0 ? '+' : ''}${r.tokens}  ${r.detail}`),
  ];
  await write(terminalText(`${lines.join('\n')}\n`));
  return EXIT_OK;
}

/** One line on what was priced: the prompt, or which plan items. */
function renderBasis(basis: TaskEstimate['basis']): string {
  const items = basis.items.length === 1 ? `line ${basis.items[0]?.line ?? '?'}` : `${basis.items.length} items`;
  switch (basis.kind) {
    case 'prompt':
      return 'the task text alone';
    case 'current-item':
      return `the plan's current item (${items})`;
    case 'items':
      return `the plan items it names (${items})`;
    case 'plan':
      return `the plan's open items (${items})`;
    default: {
      const never: never = basis.kind;
      return never;
    }
  }
}
