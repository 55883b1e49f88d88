import { join } from 'node:path';
import { readRegularFileSync, writeFileSafelySync } from '@agent-checkpoint/core';
import { projectKey } from '../metrics/project-key.ts';
import type { ShardsProgress } from '../shard/read-shard-progress.ts';
import type { IssueTracker, TrackerFailure } from './issue-tracker.ts';

/**
 * SHD-003/004: one tracker sub-issue per shard under the parent issue, and the parent's progress as
 * shards finish. The sub-issues created are recorded in the user's private state directory
 * (`tracker-shards/<project key>.json`), never in the working tree (a shard file the agent edits must
 * not choose which issue is moved to done), so a rerun creates none twice and finishes what a failed
 * run (offline, rate limited) left: the record is written after every created issue.
 */
export const SHARD_ISSUES_DIR = 'tracker-shards';

const MAX_RECORD_BYTES = 512 * 1024;
/** Plans remembered per project (oldest dropped). */
const MAX_PLANS = 50;

/** A sub-issue created for a shard file. */
export interface ShardIssue {
  readonly id: string;
  readonly identifier: string;
  readonly url: string;
  /** Moved to the done state already. */
  readonly done: boolean;
}

/** What is recorded for one (parent, plan). */
interface PlanRecord {
  readonly parent: string;
  readonly plan: string;
  /** Shard file (project-relative) → its sub-issue. */
  readonly issues: Readonly<Record<string, ShardIssue>>;
  /** The last progress line posted on the parent. */
  readonly progress?: string;
  readonly updatedAt: string;
}

/** A shard to have a sub-issue: its file and what the issue says. */
export interface ShardIssueSpec {
  /** Project-relative shard file (`WriteShardsResult`), the key of its sub-issue. */
  readonly file: string;
  readonly title: string;
  readonly description: string;
}

/** Input of {@link syncShardIssues}. */
export interface SyncShardIssuesInput {
  readonly tracker: IssueTracker;
  /** The user's private state directory. */
  readonly stateDir: string;
  readonly projectRoot: string;
  /** Project-relative plan file. */
  readonly planPath: string;
  /** The parent issue (`ANV-123`), from `--issue` or the branch. */
  readonly parentId: string;
  /** Shards of the plan that need a sub-issue (created once each). */
  readonly shards: readonly ShardIssueSpec[];
  /** The shard files' progress (`readShardProgress`): done shards' sub-issues move to `doneState`. */
  readonly progress: ShardsProgress;
  /** Workflow state a finished shard's sub-issue moves to (`tracker.shardDoneState`). */
  readonly doneState: string;
  readonly now: Date;
}

/** What {@link syncShardIssues} did. */
export interface SyncShardIssuesResult {
  /** Shard file → its sub-issue, after this run. */
  readonly issues: Readonly<Record<string, ShardIssue>>;
  /** Identifiers created by this run. */
  readonly created: readonly string[];
  /** Identifiers moved to the done state by this run. */
  readonly completed: readonly string[];
  /** The progress line posted on the parent by this run. */
  readonly progressPosted?: string;
  readonly diagnostics: readonly string[];
}

/**
 * Create the missing sub-issues (SHD-003), move finished shards' sub-issues to `doneState`, and post
 * the plan's progress on the parent when it changed (SHD-004). Failures are diagnostics: a network or
 * rate-limit failure stops the run (the next run resumes from the record), an auth failure too.
 * Never throws.
 */
export async function syncShardIssues(input: SyncShardIssuesInput): Promise<SyncShardIssuesResult> {
  const diagnostics: string[] = [];
  const store = readRecord(input.stateDir, input.projectRoot, diagnostics);
  const key = `${input.parentId}\u0000${input.planPath}`;
  let entry: PlanRecord = store[key] ?? { parent: input.parentId, plan: input.planPath, issues: {}, updatedAt: input.now.toISOString() };
  const created: string[] = [];
  const completed: string[] = [];
  const save = (): void => {
    entry = { ...entry, updatedAt: input.now.toISOString() };
    store[key] = entry;
    writeRecord(input.stateDir, input.projectRoot, store, diagnostics);
  };
  const stop = (what: string, failure: TrackerFailure): boolean => {
    diagnostics.push(`tracker: ${what} failed (${failure.kind}): ${failure.message}`);
    return failure.kind === 'auth' || failure.kind === 'network' || failure.kind === 'rate-limited';
  };

  let stopped = false;
  for (const shard of input.shards) {
    if (entry.issues[shard.file] !== undefined) continue;
    const result = await input.tracker.createSubIssue(input.parentId, shard.title, shard.description);
    if (!result.ok) {
      stopped = stop(`sub-issue for ${shard.file} under ${input.parentId}`, result.failure);
      if (stopped) break;
      continue;
    }
    const { id, identifier, url } = result.value;
    entry = { ...entry, issues: { ...entry.issues, [shard.file]: { id, identifier, url, done: false } } };
    created.push(identifier);
    save(); // after each one: a failure later must not create this one again
  }

  if (!stopped) {
    for (const shard of input.progress.shards) {
      const issue = entry.issues[shard.file];
      if (issue === undefined || issue.done || shard.status !== 'done') continue;
      const moved = await input.tracker.setState(issue.id, input.doneState);
      if (!moved.ok) {
        stopped = stop(`moving ${issue.identifier} to "${input.doneState}"`, moved.failure);
        if (stopped) break;
        continue;
      }
      entry = { ...entry, issues: { ...entry.issues, [shard.file]: { ...issue, done: true } } };
      completed.push(issue.identifier);
      save();
    }
  }

  let progressPosted: string | undefined;
  const recorded = Object.entries(entry.issues);
  if (!stopped && recorded.length > 0) {
    const line = progressLine(input.planPath, input.progress, entry.issues);
    if (line !== entry.progress) {
      const posted = await input.tracker.comment(input.parentId, line);
      if (posted.ok) {
        entry = { ...entry, progress: line };
        progressPosted = line;
        save();
      } else stop(`progress comment on ${input.parentId}`, posted.failure);
    }
  }
  return { issues: entry.issues, created, completed, ...(progressPosted !== undefined ? { progressPosted } : {}), diagnostics };
}

/** The parent's progress comment: shards and items done, and each shard's sub-issue with its status. */
export function progressLine(planPath: string, progress: ShardsProgress, issues: Readonly<Record<string, ShardIssue>>): string {
  const done = progress.shards.filter((s) => s.status === 'done').length;
  const rows = progress.shards.map((s) => {
    const issue = issues[s.file];
    return `- ${issue !== undefined ? issue.identifier : s.file}: ${s.status} (${s.done}/${s.items} items)`;
  });
  return [`**Shard progress** of \`${planPath.replaceAll('`', "'")}\`: ${done} of ${progress.shards.length} shards done, ${progress.done} of ${progress.items} items.`, '', ...rows].join('\n');
}

function recordRelPath(projectRoot: string): string {
  return `${SHARD_ISSUES_DIR}/${projectKey(projectRoot)}.json`;
}

function readRecord(stateDir: string, projectRoot: string, diagnostics: string[]): Record<string, PlanRecord> {
  let text: string | undefined;
  try {
    text = readRegularFileSync(join(stateDir, recordRelPath(projectRoot)), MAX_RECORD_BYTES)?.text;
  } catch (error) {
    diagnostics.push(`tracker: the shard sub-issue record is unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'}); starting a new one`);
    return {};
  }
  if (text === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    const out: Record<string, PlanRecord> = {};
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      const record = asPlanRecord(value);
      if (record !== undefined) out[key] = record;
    }
    return out;
  } catch {
    diagnostics.push('tracker: the shard sub-issue record is damaged; starting a new one');
    return {};
  }
}

function asPlanRecord(value: unknown): PlanRecord | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v['parent'] !== 'string' || typeof v['plan'] !== 'string' || typeof v['updatedAt'] !== 'string') return undefined;
  if (v['progress'] !== undefined && typeof v['progress'] !== 'string') return undefined;
  const raw = v['issues'];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const issues: Record<string, ShardIssue> = {};
  for (const [file, issue] of Object.entries(raw as Record<string, unknown>)) {
    if (issue === null || typeof issue !== 'object') return undefined;
    const i = issue as Record<string, unknown>;
    if (typeof i['id'] !== 'string' || typeof i['identifier'] !== 'string' || typeof i['url'] !== 'string' || typeof i['done'] !== 'boolean') return undefined;
    issues[file] = { id: i['id'], identifier: i['identifier'], url: i['url'], done: i['done'] };
  }
  return { parent: v['parent'], plan: v['plan'], issues, updatedAt: v['updatedAt'], ...(typeof v['progress'] === 'string' ? { progress: v['progress'] } : {}) };
}

function writeRecord(stateDir: string, projectRoot: string, store: Record<string, PlanRecord>, diagnostics: string[]): void {
  const kept = Object.entries(store)
    .sort((a, b) => (a[1].updatedAt < b[1].updatedAt ? -1 : 1))
    .slice(-MAX_PLANS);
  try {
    writeFileSafelySync(stateDir, recordRelPath(projectRoot), `${JSON.stringify(Object.fromEntries(kept), null, 1)}\n`, { rootKind: 'private', mode: 0o600 });
  } catch (error) {
    diagnostics.push(`tracker: could not record the shard sub-issues: ${(error as Error).message}`);
  }
}
