/**
 * The issue-tracker port of the context checkpoint system (seed 004, LIN-001..004, SHD-003).
 *
 * Every operation resolves to a {@link TrackerResult}; none throws or rejects, so a tracker that is down,
 * rate limited or misconfigured can never break a hook (the hook always exits 0 with valid output).
 */

/** Why a tracker call failed. The `kind` is what a caller branches on; `message` is for the diagnostic. */
export type TrackerFailure =
  /** The API key is missing, invalid or lacks the permission for this call. */
  | { readonly kind: 'auth'; readonly message: string }
  /** The issue (or parent issue, or workflow state) named by the caller does not exist or is not visible. */
  | { readonly kind: 'not-found'; readonly message: string }
  /** Still rate limited after the one retry the deadline allowed. `retryAfterMs` when the server said. */
  | { readonly kind: 'rate-limited'; readonly message: string; readonly retryAfterMs?: number }
  /** Connection refused/reset, DNS, timeout or abort, or a 5xx that persisted through the retry. */
  | { readonly kind: 'network'; readonly message: string }
  /** The server answered, but not with what the API documents (bad JSON, wrong shape, `success: false`). */
  | { readonly kind: 'invalid-response'; readonly message: string };

/** Outcome of one tracker call. */
export type TrackerResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: TrackerFailure };

/** An issue as the checkpoint system needs it (a handoff's "Linear issue state", HND-003). */
export interface TrackerIssue {
  /** The tracker's own opaque id (Linear: a UUID). Mutations take this one. */
  readonly id: string;
  /** The human identifier, e.g. `ANV-123`. */
  readonly identifier: string;
  readonly title: string;
  readonly url: string;
  /** Current workflow state, e.g. `{ name: 'In Progress', type: 'started' }`. */
  readonly state: { readonly id: string; readonly name: string; readonly type: string };
  /** The team the issue belongs to: states and team labels are looked up in it. */
  readonly team: { readonly id: string; readonly key: string };
  readonly labels: readonly { readonly id: string; readonly name: string }[];
}

/** A comment that was created. */
export interface TrackerComment {
  readonly id: string;
  readonly url?: string;
}

/**
 * What the checkpoint system asks of an issue tracker. Issue arguments accept the human identifier
 * (`ANV-123`) or the tracker's id.
 */
export interface IssueTracker {
  /** Look an issue up. An unknown identifier is `not-found`, never an exception. */
  findIssue(id: string): Promise<TrackerResult<TrackerIssue>>;
  /** Add a Markdown comment (LIN-002/LIN-003: the handoff summary and its path). */
  comment(issueId: string, markdown: string): Promise<TrackerResult<TrackerComment>>;
  /**
   * Move the issue to the workflow state of its team named `stateName` (case-insensitive; LIN-001).
   * Already in that state: ok without a write. No such state in the team: `not-found`.
   */
  setState(issueId: string, stateName: string): Promise<TrackerResult<TrackerIssue>>;
  /**
   * Add the label named `label` (case-insensitive) to the issue, keeping its other labels (LIN-004).
   * A team or workspace label of that name is reused; otherwise a team label is created first.
   */
  addLabel(issueId: string, label: string): Promise<TrackerResult<TrackerIssue>>;
  /** Create a sub-issue of `parentId` in the parent's team (SHD-003: one per shard). */
  createSubIssue(parentId: string, title: string, description: string): Promise<TrackerResult<TrackerIssue>>;
}

/** Shorthands for building results. */
export const ok = <T>(value: T): TrackerResult<T> => ({ ok: true, value });
export const fail = <T = never>(failure: TrackerFailure): TrackerResult<T> => ({ ok: false, failure });
