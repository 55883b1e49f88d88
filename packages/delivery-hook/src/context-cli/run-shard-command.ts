import { isAbsolute, relative, resolve, sep } from 'node:path';
import { MAX_PLAN_FILE_BYTES, planShards, readContextLevel, readTaskHistory, FALLBACK_WINDOW_TOKENS, shardDirFor, syncShardsToTracker, writeShards, type ShardPlan, type ShardTrackerOutcome } from '@agent-checkpoint/context-checkpoint';
import { trackerSettingsOf } from '@agent-checkpoint/context-checkpoint/load';
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
  /** The parent issue of the shards' sub-issues (default: the branch's issue). */
  readonly issue?: string;
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
  // SHD-003/004: with the tracker on, one sub-issue per shard under the parent, and its progress.
  const settings = trackerSettingsOf(project.config);
  let tracker: ShardTrackerOutcome | undefined;
  if (options.dryRun !== true && settings.enabled) {
    tracker = await syncShardsToTracker({
      settings,
      env: process.env,
      stateDir: project.stateDir,
      projectRoot: project.projectRoot,
      planPath,
      planText,
      plan,
      dir,
      ...(options.issue !== undefined ? { parentId: options.issue } : {}),
      now: new Date(),
      signal: AbortSignal.timeout(Math.max(30_000, settings.timeoutMs * (plan.shards.length + 3))),
    });
    const notes = tracker.kind === 'skipped' ? [tracker.message] : tracker.result.diagnostics;
    for (const note of notes) process.stderr.write(`${terminalText(note.replace(/[\r\n]+/g, ' '))}\n`);
  }
  if (options.json === true) {
    await write(jsonLine({ plan: planPath, window, dryRun: options.dryRun === true, dir, written, kept, shardPlan: plan, ...(tracker !== undefined ? { tracker: trackerJson(tracker) } : {}) }));
    return EXIT_OK;
  }
  const trackerLine = tracker?.kind === 'synced' ? `\n${renderTrackerLine(tracker)}` : '';
  await write(terminalText(`${renderShardSummary(planPath, plan, window)}\n${options.dryRun === true ? `Dry run: would write ${plan.shards.length} files under ${dir}/` : `Wrote ${written.length} files under ${dir}/${kept.length > 0 ? `; kept ${kept.length} existing` : ''}`}${trackerLine}\n`));
  return EXIT_OK;
}

/** `Linear: sub-issues of ANV-123: ANV-124, ANV-125 (2 created); done: ANV-124; progress posted.` */
function renderTrackerLine(outcome: Extract<ShardTrackerOutcome, { kind: 'synced' }>): string {
  const { result } = outcome;
  const all = Object.values(result.issues).map((issue) => issue.identifier);
  const parts = [`Linear: sub-issues of ${outcome.parentId}: ${all.length > 0 ? all.join(', ') : 'none'} (${result.created.length} created)`];
  if (result.completed.length > 0) parts.push(`moved to done: ${result.completed.join(', ')}`);
  if (result.progressPosted !== undefined) parts.push('progress posted on the parent');
  return `${parts.join('; ')}.`;
}

function trackerJson(outcome: ShardTrackerOutcome): unknown {
  if (outcome.kind === 'skipped') return { skipped: outcome.reason, message: outcome.message };
  const { result } = outcome;
  return { parent: outcome.parentId, issues: result.issues, created: result.created, completed: result.completed, progressPosted: result.progressPosted ?? null, diagnostics: result.diagnostics };
}

function renderShardSummary(planPath: string, plan: ShardPlan, window: number): string {
  const head = `${planPath}: ${plan.openItems} open items, ~${plan.totalTokens} tokens, ${plan.percentOfWindow} % of a ${window}-token window (${plan.action}).`;
  const rows = plan.shards.map((s) => `  ${s.number}. ${s.title} (${s.items.length} item${s.items.length === 1 ? '' : 's'}, ~${s.percentOfWindow} %${s.oversized ? ', one item over the limit: split it' : ''})`);
  return [head, ...rows].join('\n');
}
