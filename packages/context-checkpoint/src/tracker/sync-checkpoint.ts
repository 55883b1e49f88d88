import { renderCheckpointComment, type TrackerCheckpoint } from './checkpoint-comment.ts';
import type { IssueTracker, TrackerResult } from './issue-tracker.ts';
import type { TrackerSettings } from './tracker-settings.ts';

/** One tracker action taken for a checkpoint, and how it went. */
export type TrackerSyncStep =
  | { readonly action: 'comment'; readonly result: TrackerResult<unknown> }
  | { readonly action: 'set-state'; readonly state: string; readonly result: TrackerResult<unknown> }
  | { readonly action: 'add-label'; readonly label: string; readonly result: TrackerResult<unknown> };

/** What {@link syncCheckpointToTracker} did: its steps and one stderr diagnostic per failed step. */
export interface TrackerSyncReport {
  readonly issueId: string;
  readonly steps: readonly TrackerSyncStep[];
  readonly diagnostics: readonly string[];
}

/**
 * Tell the issue tracker about a checkpoint (seed 004, LIN-001..004):
 * - L2: a comment with the handoff summary and path (LIN-002/LIN-003), when `commentOn` has L2;
 * - L3: the comment (when `commentOn` has L3), the move to `l3State` when set (LIN-001), and the
 *   `l3Label` label (LIN-004).
 * Steps run in that order and independently: a failed comment does not stop the label. An auth failure
 * stops the rest (the same key will fail again). Never throws.
 */
export async function syncCheckpointToTracker(input: {
  readonly tracker: IssueTracker;
  readonly issueId: string;
  readonly checkpoint: TrackerCheckpoint;
  readonly settings: TrackerSettings;
}): Promise<TrackerSyncReport> {
  const { tracker, issueId, checkpoint, settings } = input;
  const steps: TrackerSyncStep[] = [];
  const diagnostics: string[] = [];
  const record = (step: TrackerSyncStep): boolean => {
    steps.push(step);
    if (!step.result.ok) diagnostics.push(`tracker: ${step.action} on ${issueId} failed (${step.result.failure.kind}): ${step.result.failure.message}`);
    return step.result.ok || step.result.failure.kind !== 'auth';
  };

  if (settings.commentOn.includes(checkpoint.level)) {
    const result = await tracker.comment(issueId, renderCheckpointComment(checkpoint));
    if (!record({ action: 'comment', result })) return { issueId, steps, diagnostics };
  }
  if (checkpoint.level === 'L3') {
    if (settings.l3State !== undefined) {
      const result = await tracker.setState(issueId, settings.l3State);
      if (!record({ action: 'set-state', state: settings.l3State, result })) return { issueId, steps, diagnostics };
    }
    record({ action: 'add-label', label: settings.l3Label, result: await tracker.addLabel(issueId, settings.l3Label) });
  }
  return { issueId, steps, diagnostics };
}
