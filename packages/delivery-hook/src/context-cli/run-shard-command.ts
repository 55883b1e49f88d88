import { isAbsolute, relative, resolve, sep } from 'node:path';
import { MAX_PLAN_FILE_BYTES, planShards, readContextLevel, readTaskHistory, FALLBACK_WINDOW_TOKENS, shardDirFor, writeShards, type ShardPlan } from '@agent-checkpoint/context-checkpoint';
import { describeReadFailure, readRegularFileSync } from '@agent-checkpoint/core';
import { EXIT_OK } from '@agent-checkpoint/setup-kit';
import { commandFailure, jsonLine, openCommandProject, terminalText, type Write } from './context-cli-support.ts';
import { readCurrentSessionUsage } from './current-session-usage.ts';

/** Options of `shard`. */
export interface ShardOptions {
  readonly dryRun?: boolean;
  readonly dir?: string;
  readonly cwd?: string;
  readonly json?: boolean;
}

/**
 * `shard <plan>` (SHD-001, SHD-002): split the plan's open items into shards of < 30 % of the window
 * each and write them as `.agent-checkpoint/shards/<plan>/NN-<slug>.md` (`--dry-run`: only show
 * them). Existing shard files are kept, never overwritten. The plan must be inside the project.
 */
export async function runShardCommand(planArg: string, options: ShardOptions, write: Write): Promise<number> {
  const project = await openCommandProject(options.cwd);
  if (typeof project === 'string') return commandFailure(`shard: ${project}`);
  const absolute = resolve(project.cwd, planArg);
  const planPath = relative(project.projectRoot, absolute).split(sep).join('/');
  if (planPath === '' || planPath.startsWith('../') || planPath === '..' || isAbsolute(planPath)) return commandFailure(`shard: ${planArg} is not inside the project ${project.projectRoot}`);
  let planText: string | undefined;
  try {
    planText = readRegularFileSync(absolute, MAX_PLAN_FILE_BYTES)?.text;
  } catch (error) {
    return commandFailure(`shard: ${planArg}: ${describeReadFailure(error)}`);
  }
  if (planText === undefined) return commandFailure(`shard: ${planArg} not found`);

  const { context } = project.context;
  const session = await readCurrentSessionUsage(project.cwd, process.env);
  const reading = readContextLevel(session?.latest?.usage, { windowTokens: context.windowTokens, thresholds: context.thresholds });
  const window = reading?.windowSource !== undefined && reading.windowSource !== 'unknown' ? reading.contextWindow : (context.windowTokens ?? FALLBACK_WINDOW_TOKENS);
  // The project's history corrects each item as it corrects a prompt: the same price as `estimate`.
  const history = await readTaskHistory({ stateDir: project.stateDir, projectRoot: project.projectRoot });
  const plan = planShards({ planText, budget: { window }, history: history.records });
  if (plan.shards.length === 0) return commandFailure(`shard: ${planArg} has no open items (unchecked boxes or TODO lines)`);

  let dir: string;
  let written: readonly string[] = [];
  let kept: readonly string[] = [];
  try {
    if (options.dryRun === true) dir = shardDirFor(planPath, options.dir);
    else ({ dir, written, kept } = await writeShards({ projectRoot: project.projectRoot, planPath, plan, ...(options.dir !== undefined ? { dir: options.dir } : {}) }));
  } catch (error) {
    return commandFailure(`shard: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (options.json === true) {
    await write(jsonLine({ plan: planPath, window, dryRun: options.dryRun === true, dir, written, kept, shardPlan: plan }));
    return EXIT_OK;
  }
  await write(terminalText(`${renderShardSummary(planPath, plan, window)}\n${options.dryRun === true ? `Dry run: would write ${plan.shards.length} files under ${dir}/` : `Wrote ${written.length} files under ${dir}/${kept.length > 0 ? `; kept ${kept.length} existing` : ''}`}\n`));
  return EXIT_OK;
}

function renderShardSummary(planPath: string, plan: ShardPlan, window: number): string {
  const head = `${planPath}: ${plan.openItems} open items, ~${plan.totalTokens} tokens, ${plan.percentOfWindow} % of a ${window}-token window (${plan.action}).`;
  const rows = plan.shards.map((s) => `  ${s.number}. ${s.title} (${s.items.length} item${s.items.length === 1 ? '' : 's'}, ~${s.percentOfWindow} %${s.oversized ? ', one item over the limit: split it' : ''})`);
  return [head, ...rows].join('\n');
}
