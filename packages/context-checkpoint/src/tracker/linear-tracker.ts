import { z } from 'zod';
import { describeError, requestWithRetry, safeText, type HttpAnswer } from './http-with-retry.ts';
import { fail, ok, type IssueTracker, type TrackerFailure, type TrackerIssue, type TrackerResult } from './issue-tracker.ts';
import {
  COMMENT_CREATE,
  ISSUE_CREATE,
  ISSUE_LABELS_QUERY,
  ISSUE_QUERY,
  ISSUE_UPDATE,
  LABEL_CREATE,
  WORKFLOW_STATES_QUERY,
  type LinearIssueData,
  type LinearOperation,
} from './linear-documents.ts';

/** Options of {@link createLinearTracker}. */
export interface LinearTrackerOptions {
  /** From `resolveLinearEndpoint`: Linear's endpoint or a loopback mock. */
  readonly endpoint: string;
  /** Personal API key, sent as `Authorization: <key>` (Linear's scheme for personal keys, no `Bearer`). */
  readonly apiKey: string;
  /** Budget of one tracker operation (all its requests, the retry and its wait). */
  readonly timeoutMs: number;
  /** Aborts every request in flight (e.g. the hook's own deadline). */
  readonly signal?: AbortSignal;
  /** Injected for tests only. */
  readonly fetch?: typeof fetch;
}

/** Longest Markdown body sent; a handoff summary is far shorter, this only bounds a runaway input. */
const MAX_BODY_CHARS = 60_000;

const graphqlError = z.looseObject({
  message: z.string().optional(),
  extensions: z
    .looseObject({ code: z.string().optional(), type: z.string().optional(), userPresentableMessage: z.string().optional() })
    .optional(),
});
const envelope = z.looseObject({ data: z.unknown().optional(), errors: z.array(graphqlError).optional() });
type GraphqlError = z.output<typeof graphqlError>;

/**
 * The Linear implementation of {@link IssueTracker}: plain `fetch` + GraphQL documents + zod-validated
 * answers (see docs/context-checkpoints.md, "Issue tracker and memory service", for why not `@linear/sdk`).
 * Never throws: every failure is a {@link TrackerFailure}.
 */
export function createLinearTracker(options: LinearTrackerOptions): IssueTracker {
  const call = <T>(operation: LinearOperation<T>, variables: Record<string, unknown>, deadlineAt: number) =>
    linearRequest(options, operation, variables, deadlineAt);
  const deadline = (): number => Date.now() + options.timeoutMs;

  const find = async (id: string, deadlineAt: number): Promise<TrackerResult<TrackerIssue>> => {
    const result = await call(ISSUE_QUERY, { id }, deadlineAt);
    return result.ok ? ok(toIssue(result.value.issue)) : result;
  };

  return {
    findIssue: (id) => guard(() => find(id, deadline())),

    comment: (issueId, markdown) =>
      guard(async () => {
        const deadlineAt = deadline();
        const issue = await find(issueId, deadlineAt);
        if (!issue.ok) return issue;
        const body = markdown.length > MAX_BODY_CHARS ? `${markdown.slice(0, MAX_BODY_CHARS)}\n\n…(truncated)` : markdown;
        const result = await call(COMMENT_CREATE, { input: { issueId: issue.value.id, body } }, deadlineAt);
        if (!result.ok) return result;
        const { success, comment } = result.value.commentCreate;
        return success ? ok({ id: comment.id, url: comment.url }) : fail(unsuccessful('commentCreate'));
      }),

    setState: (issueId, stateName) =>
      guard(async () => {
        const deadlineAt = deadline();
        const found = await find(issueId, deadlineAt);
        if (!found.ok) return found;
        const issue = found.value;
        if (sameName(issue.state.name, stateName)) return ok(issue);
        const states = await call(WORKFLOW_STATES_QUERY, { teamId: issue.team.id, name: stateName }, deadlineAt);
        if (!states.ok) return states;
        const state = states.value.workflowStates.nodes.find((node) => sameName(node.name, stateName));
        if (state === undefined) {
          return fail({ kind: 'not-found', message: `no workflow state named "${safeText(stateName, 100)}" in team ${issue.team.key}` });
        }
        return update(issue.id, { stateId: state.id }, deadlineAt);
      }),

    addLabel: (issueId, label) =>
      guard(async () => {
        const deadlineAt = deadline();
        const found = await find(issueId, deadlineAt);
        if (!found.ok) return found;
        const issue = found.value;
        if (issue.labels.some((existing) => sameName(existing.name, label))) return ok(issue);
        const labels = await call(ISSUE_LABELS_QUERY, { name: label }, deadlineAt);
        if (!labels.ok) return labels;
        const candidates = labels.value.issueLabels.nodes.filter((node) => sameName(node.name, label));
        // A label of the issue's team first, else a workspace label; a label of another team cannot be applied.
        let labelId = (candidates.find((node) => node.team?.id === issue.team.id) ?? candidates.find((node) => node.team === null))?.id;
        if (labelId === undefined) {
          const created = await call(LABEL_CREATE, { input: { name: label, teamId: issue.team.id } }, deadlineAt);
          if (!created.ok) return created;
          if (!created.value.issueLabelCreate.success) return fail(unsuccessful('issueLabelCreate'));
          labelId = created.value.issueLabelCreate.issueLabel.id;
        }
        // addedLabelIds keeps the issue's other labels (labelIds would replace them all).
        return update(issue.id, { addedLabelIds: [labelId] }, deadlineAt);
      }),

    createSubIssue: (parentId, title, description) =>
      guard(async () => {
        const deadlineAt = deadline();
        const parent = await find(parentId, deadlineAt);
        if (!parent.ok) return parent;
        const input = { teamId: parent.value.team.id, parentId: parent.value.id, title, description: description.slice(0, MAX_BODY_CHARS) };
        const result = await call(ISSUE_CREATE, { input }, deadlineAt);
        if (!result.ok) return result;
        const { success, issue } = result.value.issueCreate;
        return success && issue !== null ? ok(toIssue(issue)) : fail(unsuccessful('issueCreate'));
      }),
  };

  async function update(id: string, input: Record<string, unknown>, deadlineAt: number): Promise<TrackerResult<TrackerIssue>> {
    const result = await call(ISSUE_UPDATE, { id, input }, deadlineAt);
    if (!result.ok) return result;
    const { success, issue } = result.value.issueUpdate;
    return success && issue !== null ? ok(toIssue(issue)) : fail(unsuccessful('issueUpdate'));
  }
}

/** Send one GraphQL operation and interpret Linear's answer. Exported for the mock's tests. */
export async function linearRequest<T>(
  options: LinearTrackerOptions,
  operation: LinearOperation<T>,
  variables: Record<string, unknown>,
  deadlineAt: number,
): Promise<TrackerResult<T>> {
  const answer = await requestWithRetry({
    url: options.endpoint,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: options.apiKey, accept: 'application/json' },
      body: JSON.stringify({ query: operation.query, variables, operationName: operation.operationName }),
    },
    deadlineAt,
    isRetryable: (candidate) => errorsOf(candidate).some(isRateLimited),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (!('status' in answer)) {
    return answer.kind === 'rate-limited'
      ? fail({ kind: 'rate-limited', message: answer.message, ...(answer.retryAfterMs !== undefined ? { retryAfterMs: answer.retryAfterMs } : {}) })
      : fail({ kind: 'network', message: answer.message });
  }
  const parsed = parseEnvelope(answer.body);
  if (parsed === undefined) {
    if (answer.status === 401 || answer.status === 403) return fail({ kind: 'auth', message: `HTTP ${answer.status}` });
    return fail({ kind: 'invalid-response', message: `${operation.operationName}: HTTP ${answer.status}, body is not a GraphQL response` });
  }
  const firstError = parsed.errors?.[0];
  if (firstError !== undefined) return fail(classify(firstError, answer.status, operation.operationName));
  if (answer.status === 401 || answer.status === 403) return fail({ kind: 'auth', message: `HTTP ${answer.status}` });
  if (answer.status !== 200) return fail({ kind: 'invalid-response', message: `${operation.operationName}: HTTP ${answer.status}` });
  const data = operation.data.safeParse(parsed.data);
  if (!data.success) {
    const where = data.error.issues[0]?.path.join('.') ?? '';
    return fail({ kind: 'invalid-response', message: `${operation.operationName}: unexpected data shape${where ? ` at ${where}` : ''}` });
  }
  return ok(data.data);
}

function parseEnvelope(body: string): z.output<typeof envelope> | undefined {
  try {
    const result = envelope.safeParse(JSON.parse(body));
    return result.success && (result.data.data !== undefined || result.data.errors !== undefined) ? result.data : undefined;
  } catch {
    return undefined;
  }
}

function errorsOf(answer: HttpAnswer): readonly GraphqlError[] {
  return parseEnvelope(answer.body)?.errors ?? [];
}

function isRateLimited(error: GraphqlError): boolean {
  return error.extensions?.code === 'RATELIMITED' || error.extensions?.type === 'ratelimited';
}

/**
 * Map Linear's error to a failure kind. Linear sets `extensions.code` (`RATELIMITED`,
 * `AUTHENTICATION_ERROR`…) and `extensions.type` (`authentication error`, `forbidden`, `invalid input`…);
 * a missing entity is an `invalid input` error whose message says "Entity not found".
 */
function classify(error: GraphqlError, status: number, operationName: string): TrackerFailure {
  const code = error.extensions?.code ?? '';
  const type = error.extensions?.type ?? '';
  const text = safeText(error.extensions?.userPresentableMessage ?? error.message ?? (code || type || 'unknown error'));
  const message = `${operationName}: ${text}`;
  if (isRateLimited(error)) return { kind: 'rate-limited', message };
  if (code === 'AUTHENTICATION_ERROR' || code === 'FORBIDDEN' || type === 'authentication error' || type === 'forbidden' || status === 401 || status === 403) {
    return { kind: 'auth', message };
  }
  if (/entity not found|could not find/i.test(`${error.message ?? ''} ${error.extensions?.userPresentableMessage ?? ''}`)) {
    return { kind: 'not-found', message };
  }
  return { kind: 'invalid-response', message };
}

function toIssue(data: LinearIssueData): TrackerIssue {
  return { ...data, labels: data.labels.nodes };
}

function sameName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}

function unsuccessful(mutation: string): TrackerFailure {
  return { kind: 'invalid-response', message: `${mutation} answered success: false` };
}

/** Last line of defence: a bug here must still not reach the hook as an exception. */
async function guard<T>(run: () => Promise<TrackerResult<T>>): Promise<TrackerResult<T>> {
  try {
    return await run();
  } catch (error) {
    return fail({ kind: 'invalid-response', message: `unexpected: ${describeError(error)}` });
  }
}
