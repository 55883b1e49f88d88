import type { ShardPlan } from '../shard/plan-shards.ts';
import { readShardProgress } from '../shard/read-shard-progress.ts';
import { shardFileName } from '../shard/render-shard.ts';
import type { SyncShardIssuesResult, ShardIssueSpec } from '../tracker/shard-issues.ts';
import type { TrackerSettings } from '../tracker/tracker-settings.ts';

/** Input of {@link syncShardsToTracker}. */
export interface ShardTrackerInput {
  readonly settings: TrackerSettings;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stateDir: string;
  readonly projectRoot: string;
  /** Project-relative plan file. */
  readonly planPath: string;
  readonly planText: string;
  /** The plan's shards (`planShards`): one sub-issue each. Absent (`loop next`): progress only, nothing created. */
  readonly plan?: ShardPlan;
  /** Project-relative directory of this plan's shard files (`writeShards`' `dir`). */
  readonly dir: string;
  /** The parent issue; default the branch's issue (`tracker.issuePattern`). */
  readonly parentId?: string;
  readonly now: Date;
  readonly signal?: AbortSignal;
}

/** What {@link syncShardsToTracker} did: skipped (tracker off, no key, no parent) or the sync's result. */
export type ShardTrackerOutcome =
  | { readonly kind: 'skipped'; readonly reason: 'disabled' | 'no-key' | 'endpoint-refused' | 'no-parent'; readonly message: string }
  | { readonly kind: 'synced'; readonly parentId: string; readonly result: SyncShardIssuesResult };

/**
 * SHD-003/004 for the `shard` command: with the tracker on (Linear), one sub-issue per shard under the
 * parent issue (`--issue`, else the branch's), finished shards' sub-issues moved to
 * `tracker.shardDoneState`, and the parent's progress comment when it changed. Without `plan` (`loop
 * next`, as shards finish) only the progress part runs. The Linear client and the record are imported
 * only here, lazily. Never throws.
 */
export async function syncShardsToTracker(input: ShardTrackerInput): Promise<ShardTrackerOutcome> {
  const { openIssueTracker } = await import('../tracker/open-issue-tracker.ts');
  const opened = await openIssueTracker(input.settings, { env: input.env, ...(input.signal ? { signal: input.signal } : {}) });
  if (!opened.ok) return { kind: 'skipped', reason: opened.reason, message: opened.message };
  let parentId = input.parentId;
  if (parentId === undefined) {
    const { readBranchIssueId } = await import('../tracker/issue-id-from-branch.ts');
    parentId = await readBranchIssueId({ cwd: input.projectRoot, pattern: input.settings.issuePattern, env: input.env, ...(input.signal ? { signal: input.signal } : {}) });
  }
  if (parentId === undefined) {
    return { kind: 'skipped', reason: 'no-parent', message: 'tracker: no parent issue (the branch names none; pass --issue <id>); no sub-issues created' };
  }
  let progress;
  try {
    progress = readShardProgress({ projectRoot: input.projectRoot, dir: input.dir, planText: input.planText });
  } catch (error) {
    progress = { shards: [], items: 0, done: 0, problems: [error instanceof Error ? error.message : String(error)] };
  }
  const shards = input.plan?.shards ?? [];
  const of = shards.length;
  const specs: ShardIssueSpec[] = shards.map((shard) => {
    const file = `${input.dir}/${shardFileName(shard)}`;
    return {
      file,
      title: `Shard ${shard.number}/${of}: ${oneLine(shard.title).slice(0, 200)}`,
      description: [
        `Shard ${shard.number} of ${of} of \`${oneLine(input.planPath).replaceAll('`', "'")}\` (~${shard.percentOfWindow} % of the context window), written to \`${file}\` by agent-checkpoint.`,
        '',
        ...shard.items.map((item) => `- [ ] ${oneLine(item.text)}`),
      ].join('\n'),
    };
  });
  const { syncShardIssues } = await import('../tracker/shard-issues.ts');
  const result = await syncShardIssues({
    tracker: opened.tracker,
    stateDir: input.stateDir,
    projectRoot: input.projectRoot,
    planPath: input.planPath,
    parentId,
    shards: specs,
    progress,
    doneState: input.settings.shardDoneState,
    now: input.now,
  });
  return { kind: 'synced', parentId, result: { ...result, diagnostics: [...progress.problems.map((p) => `shard: ${p}`), ...result.diagnostics] } };
}

/** Plan text on one line, without control characters (it goes into an issue title and Markdown). */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}
