import { errorMessage } from '@agent-checkpoint/core';
import type { TrackerCheckpointLevel } from '../tracker/checkpoint-comment.ts';
import type { IssueTracker, TrackerIssue } from '../tracker/issue-tracker.ts';
import type { TrackerSettings } from '../tracker/tracker-settings.ts';

/**
 * The issue tracker's part of a handoff checkpoint (seed 004, LIN-001..004, HND-003), in two halves
 * around the handoff write:
 * - {@link prepareTrackerIssue} before it: the issue id from the branch name and, when the tracker
 *   answers, the issue itself, so the handoff carries `linear_issues: [ID]` and a "Linear Issue"
 *   section;
 * - {@link syncTrackerAfterHandoff} after it: the L2 comment / L3 comment + state + label, through
 *   the outbox (a passing failure is queued and replayed at the next checkpoint).
 * The tracker modules are imported lazily: a configuration without `tracker.enabled` loads none of
 * them. Neither half throws or blocks the checkpoint: every problem is a diagnostic, and each request
 * is bounded by `tracker.timeoutMs` and the hook's abort signal.
 */

/** Budget of the issue lookup made before the handoff is written. */
export const LOOKUP_BUDGET_MS = 1_500;

/** What {@link prepareTrackerIssue} found: nothing (tracker off, no id), or the id and maybe the issue. */
export interface PreparedTrackerIssue {
  readonly issueId: string;
  /** The issue as fetched (undefined when the tracker could not be reached or opened). */
  readonly issue?: TrackerIssue;
  /** The opened tracker, reused by the sync (undefined: no key, refused endpoint). */
  readonly tracker?: IssueTracker;
  readonly settings: TrackerSettings;
}

/** Options shared by both halves. */
export interface TrackerStepEnv {
  readonly projectRoot: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
}

/** Find the branch's issue and open the tracker. Undefined when the tracker is off or the branch names no issue. */
export async function prepareTrackerIssue(settings: TrackerSettings, options: TrackerStepEnv, diagnostics: string[]): Promise<PreparedTrackerIssue | undefined> {
  if (!settings.enabled) return undefined;
  try {
    const { readBranchIssueId } = await import('../tracker/issue-id-from-branch.ts');
    const issueId = await readBranchIssueId({
      cwd: options.projectRoot,
      pattern: settings.issuePattern,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (issueId === undefined) {
      diagnostics.push('tracker: the branch name holds no issue id (tracker.issuePattern); Linear not updated');
      return undefined;
    }
    const { openIssueTracker } = await import('../tracker/open-issue-tracker.ts');
    const opened = await openIssueTracker(settings, { env: options.env, ...(options.signal ? { signal: options.signal } : {}) });
    if (!opened.ok) {
      diagnostics.push(opened.message);
      return { issueId, settings };
    }
    // The lookup runs before the handoff is written: a slow Linear must not hold up the part that
    // matters, so it gets a short budget of its own (the sync after the write keeps `timeoutMs`).
    const quick = await openIssueTracker({ ...settings, timeoutMs: Math.min(settings.timeoutMs, LOOKUP_BUDGET_MS) }, { env: options.env, ...(options.signal ? { signal: options.signal } : {}) });
    const found = quick.ok ? await quick.tracker.findIssue(issueId) : await opened.tracker.findIssue(issueId);
    if (!found.ok) diagnostics.push(`tracker: reading ${issueId} failed (${found.failure.kind}): ${found.failure.message}`);
    return { issueId, tracker: opened.tracker, settings, ...(found.ok ? { issue: found.value } : {}) };
  } catch (error) {
    diagnostics.push(`tracker: ${errorMessage(error)}; Linear not updated`);
    return undefined;
  }
}

/** Tell the tracker about the handoff just written (through the outbox). Diagnostics only; never throws. */
export async function syncTrackerAfterHandoff(
  prepared: PreparedTrackerIssue | undefined,
  checkpoint: {
    readonly level: TrackerCheckpointLevel;
    readonly percent?: number;
    readonly handoffPath?: string;
    readonly branch?: string;
    readonly head?: string;
    readonly iteration?: number;
  },
  stateDir: string | undefined,
  diagnostics: string[],
  /** The session the handoff belongs to: with the level and the handoff path, what makes the sync once-only. */
  options: { readonly sessionId?: string; readonly now?: Date } = {},
): Promise<void> {
  if (prepared?.tracker === undefined) return;
  if (stateDir === undefined) {
    diagnostics.push('tracker: no state directory for the outbox; Linear not updated');
    return;
  }
  try {
    if (checkpoint.handoffPath !== undefined) {
      // Once per (session, level, handoff): a second route or a retried hook announcing the same
      // handoff posts nothing more.
      const { claimHandoffSync } = await import('./handoff-sync-record.ts');
      const key = { service: 'tracker' as const, level: checkpoint.level, handoffPath: checkpoint.handoffPath, ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}) };
      const claim = claimHandoffSync(stateDir, key, options.now ?? new Date());
      if (claim.kind === 'already') return;
      if (claim.kind === 'unrecorded') diagnostics.push(`tracker: ${claim.note}`);
    }
    const { syncCheckpointWithOutbox } = await import('../tracker/tracker-outbox.ts');
    const report = await syncCheckpointWithOutbox({
      tracker: prepared.tracker,
      issueId: prepared.issueId,
      checkpoint,
      settings: prepared.settings,
      stateDir,
    });
    // The report's own diagnostics are the replay's; the current sync's are in `current`.
    diagnostics.push(...report.diagnostics, ...report.current.diagnostics);
    if (report.pending > 0) diagnostics.push(`tracker: ${report.pending} update(s) queued in the outbox; sent at the next checkpoint`);
  } catch (error) {
    diagnostics.push(`tracker: ${errorMessage(error)}; Linear not updated`);
  }
}
