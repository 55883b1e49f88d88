import { renderCheckpointComment, type TrackerCheckpoint } from './checkpoint-comment.ts';
import type { IssueTracker, TrackerResult } from './issue-tracker.ts';
import type { TrackerSettings } from './tracker-settings.ts';

/** The actions a checkpoint can cause, in the order they run. */
export type TrackerSyncAction = 'comment' | 'set-state' | 'add-label';

/** The actions `settings` call for at `level`, in order. */
export function trackerActionsFor(level: 'L2' | 'L3', settings: TrackerSettings): TrackerSyncAction[] {
  const actions: TrackerSyncAction[] = [];
  if (settings.commentOn.includes(level)) actions.push('comment');
  if (level === 'L3' && settings.l3State !== undefined) actions.push('set-state');
  if (level === 'L3') actions.push('add-label');
  return actions;
}

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
  /** Run only these of the actions the level calls for (a replay of the ones that failed). Default all. */
  readonly only?: readonly TrackerSyncAction[];
}): Promise<TrackerSyncReport> {
  const { tracker, issueId, checkpoint, settings } = input;
  const steps: TrackerSyncStep[] = [];
  const diagnostics: string[] = [];
  const actions = trackerActionsFor(checkpoint.level, settings).filter((action) => input.only === undefined || input.only.includes(action));
  for (const action of actions) {
    const step = await run(action);
    steps.push(step);
    if (step.result.ok) continue;
    diagnostics.push(`tracker: ${step.action} on ${issueId} failed (${step.result.failure.kind}): ${step.result.failure.message}`);
    if (step.result.failure.kind === 'auth') break; // the same key fails every call
  }
  return { issueId, steps, diagnostics };

  async function run(action: TrackerSyncAction): Promise<TrackerSyncStep> {
    switch (action) {
      case 'comment':
        return { action, result: await tracker.comment(issueId, renderCheckpointComment(checkpoint)) };
      case 'set-state': {
        // trackerActionsFor only lists set-state when l3State is set.
        const state = settings.l3State ?? '';
        return { action, state, result: await tracker.setState(issueId, state) };
      }
      case 'add-label':
        return { action, label: settings.l3Label, result: await tracker.addLabel(issueId, settings.l3Label) };
    }
  }
}
