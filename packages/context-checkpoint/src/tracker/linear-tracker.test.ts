import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { createLinearTracker, type LinearTrackerOptions } from './linear-tracker.ts';
import { startLinearMock, type LinearMock } from './test-support/linear-mock.ts';

const KEY = 'lin_api_test_0123456789';

let mock: LinearMock;

beforeEach(async () => {
  mock = await startLinearMock({
    apiKey: KEY,
    teams: [
      { id: 'team-anv', key: 'ANV' },
      { id: 'team-ops', key: 'OPS' },
    ],
    states: [
      { id: 'st-todo', name: 'Todo', type: 'unstarted', teamId: 'team-anv' },
      { id: 'st-progress', name: 'In Progress', type: 'started', teamId: 'team-anv' },
      { id: 'st-review', name: 'In Review', type: 'started', teamId: 'team-anv' },
      { id: 'st-ops-progress', name: 'In Progress', type: 'started', teamId: 'team-ops' },
    ],
    labels: [
      { id: 'lb-bug', name: 'Bug', teamId: null },
      { id: 'lb-ops-ckpt', name: 'context-checkpointed', teamId: 'team-ops' },
    ],
    issues: [
      { id: 'uuid-123', identifier: 'ANV-123', title: 'OAuth callback', teamId: 'team-anv', stateId: 'st-todo' },
      { id: 'uuid-7', identifier: 'OPS-7', title: 'Runbook', teamId: 'team-ops', stateId: 'st-ops-progress' },
    ],
  });
});

afterEach(async () => {
  await mock.close();
});

const tracker = (overrides: Partial<LinearTrackerOptions> = {}) =>
  createLinearTracker({ endpoint: mock.url, apiKey: KEY, timeoutMs: 5_000, ...overrides });

describe('createLinearTracker against the loopback Linear mock', () => {
  it('finds an issue by its identifier, with state, team and labels', async () => {
    const result = await tracker().findIssue('ANV-123');
    expect(result).toEqual({
      ok: true,
      value: {
        id: 'uuid-123',
        identifier: 'ANV-123',
        title: 'OAuth callback',
        url: 'https://linear.app/mock/issue/ANV-123',
        state: { id: 'st-todo', name: 'Todo', type: 'unstarted' },
        team: { id: 'team-anv', key: 'ANV' },
        labels: [],
      },
    });
    expect(mock.requests[0]?.method).toBe('POST');
    expect(mock.requests[0]?.headers.authorization).toBe(KEY);
    expect(mock.requests[0]?.operationName).toBe('CheckpointIssue');
    expect(mock.violations).toEqual([]);
  });

  it('comments on the issue (resolving the identifier to its id first)', async () => {
    const result = await tracker().comment('ANV-123', '**Checkpoint** L2 — handoff `.agent-checkpoint/handoffs/x.md`');
    expect(result.ok).toBe(true);
    expect(mock.comments).toEqual([
      { id: expect.any(String), issueId: 'uuid-123', body: '**Checkpoint** L2 — handoff `.agent-checkpoint/handoffs/x.md`' },
    ]);
    expect(mock.requests.map((r) => r.operationName)).toEqual(['CheckpointIssue', 'CheckpointCommentCreate']);
    expect(mock.violations).toEqual([]);
  });

  it('moves the issue to a named state of its own team, case-insensitively', async () => {
    const result = await tracker().setState('ANV-123', 'in progress');
    expect(result.ok && result.value.state).toEqual({ id: 'st-progress', name: 'In Progress', type: 'started' });
    expect(mock.issues.find((i) => i.identifier === 'ANV-123')?.stateId).toBe('st-progress');
    expect(mock.requests.map((r) => r.operationName)).toEqual(['CheckpointIssue', 'CheckpointWorkflowStates', 'CheckpointIssueUpdate']);
    expect(mock.requests[1]?.variables).toEqual({ teamId: 'team-anv', name: 'in progress' });
    expect(mock.violations).toEqual([]);
  });

  it('does not write when the issue is already in the state', async () => {
    const result = await tracker().setState('OPS-7', 'In Progress');
    expect(result.ok).toBe(true);
    expect(mock.requests.map((r) => r.operationName)).toEqual(['CheckpointIssue']);
  });

  it('reports a state the team lacks as not-found, without updating', async () => {
    const result = await tracker().setState('ANV-123', 'Blocked');
    expect(result).toEqual({ ok: false, failure: { kind: 'not-found', message: 'no workflow state named "Blocked" in team ANV' } });
    expect(mock.issues.find((i) => i.identifier === 'ANV-123')?.stateId).toBe('st-todo');
  });

  it('creates the label in the issue team when missing, then adds it keeping other labels', async () => {
    const issue = mock.issues.find((i) => i.identifier === 'ANV-123');
    issue?.labelIds.push('lb-bug');
    const result = await tracker().addLabel('ANV-123', 'context-checkpointed');
    expect(result.ok).toBe(true);
    // OPS's label of that name belongs to another team: a new ANV label is created.
    const created = mock.labels.filter((l) => l.name === 'context-checkpointed');
    expect(created.map((l) => l.teamId).sort()).toEqual(['team-anv', 'team-ops']);
    const anvLabel = created.find((l) => l.teamId === 'team-anv');
    expect(issue?.labelIds).toEqual(['lb-bug', anvLabel?.id]);
    expect(mock.requests.map((r) => r.operationName)).toEqual([
      'CheckpointIssue',
      'CheckpointIssueLabels',
      'CheckpointIssueLabelCreate',
      'CheckpointIssueUpdate',
    ]);
    expect(mock.requests[3]?.variables).toEqual({ id: 'uuid-123', input: { addedLabelIds: [anvLabel?.id] } });
    expect(mock.violations).toEqual([]);
  });

  it('reuses an existing team or workspace label and skips a label already set', async () => {
    expect((await tracker().addLabel('OPS-7', 'Context-Checkpointed')).ok).toBe(true);
    expect(mock.issues.find((i) => i.identifier === 'OPS-7')?.labelIds).toEqual(['lb-ops-ckpt']);
    expect((await tracker().addLabel('ANV-123', 'bug')).ok).toBe(true);
    expect(mock.issues.find((i) => i.identifier === 'ANV-123')?.labelIds).toEqual(['lb-bug']);
    const before = mock.requests.length;
    expect((await tracker().addLabel('OPS-7', 'context-checkpointed')).ok).toBe(true);
    expect(mock.requests.slice(before).map((r) => r.operationName)).toEqual(['CheckpointIssue']);
    expect(mock.requests.some((r) => r.operationName === 'CheckpointIssueLabelCreate')).toBe(false);
  });

  it('creates a sub-issue in the parent team (SHD-003)', async () => {
    const result = await tracker().createSubIssue('ANV-123', 'Shard 1/3: token exchange', 'From plan.md items 1-4');
    expect(result.ok && result.value.identifier).toMatch(/^ANV-\d+$/);
    const created = mock.issues.find((i) => i.title === 'Shard 1/3: token exchange');
    expect(created).toMatchObject({ teamId: 'team-anv', parentId: 'uuid-123', description: 'From plan.md items 1-4' });
    expect(mock.violations).toEqual([]);
  });

  it('an unknown issue is not-found', async () => {
    const result = await tracker().findIssue('ANV-999');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failure.kind).toBe('not-found');
    const sub = await tracker().createSubIssue('ANV-999', 't', 'd');
    expect(!sub.ok && sub.failure.kind).toBe('not-found');
  });

  it('a wrong key is an auth failure; a Bearer-prefixed personal key too (and is a shape violation)', async () => {
    const wrong = await tracker({ apiKey: 'lin_api_wrong' }).comment('ANV-123', 'x');
    expect(!wrong.ok && wrong.failure.kind).toBe('auth');
    expect(mock.comments).toEqual([]);
    const bearer = await tracker({ apiKey: `Bearer ${KEY}` }).findIssue('ANV-123');
    expect(!bearer.ok && bearer.failure.kind).toBe('auth');
    expect(mock.violations).toEqual(['personal API key sent with a Bearer prefix']);
  });

  it('retries once after RATELIMITED, honouring the reset time, then succeeds', async () => {
    mock.fault({ kind: 'rate-limited', resetInMs: 300 });
    const started = Date.now();
    const result = await tracker().findIssue('ANV-123');
    expect(result.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(mock.requests.map((r) => r.operationName)).toEqual(['CheckpointIssue', 'CheckpointIssue']);
  });

  it('retries once after HTTP 429 with Retry-After in seconds', async () => {
    mock.fault({ kind: 'rate-limited', status: 429, retryAfterSeconds: 1 });
    const started = Date.now();
    const result = await tracker().findIssue('ANV-123');
    expect(result.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(mock.requests).toHaveLength(2);
  });

  it('still rate limited after the one retry: rate-limited, no third request', async () => {
    mock.fault({ kind: 'rate-limited', resetInMs: 100 }, { kind: 'rate-limited', retryAfterSeconds: 30 });
    const result = await tracker().findIssue('ANV-123');
    expect(result).toEqual({ ok: false, failure: { kind: 'rate-limited', message: expect.any(String), retryAfterMs: 30_000 } });
    expect(mock.requests).toHaveLength(2);
  });

  it('does not wait past the deadline: a Retry-After beyond the budget fails at once', async () => {
    mock.fault({ kind: 'rate-limited', retryAfterSeconds: 60 });
    const started = Date.now();
    const result = await tracker({ timeoutMs: 2_000 }).findIssue('ANV-123');
    expect(!result.ok && result.failure.kind).toBe('rate-limited');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(mock.requests).toHaveLength(1);
  });

  it('retries a 5xx once', async () => {
    mock.fault({ kind: 'server-error' });
    expect((await tracker().findIssue('ANV-123')).ok).toBe(true);
    mock.fault({ kind: 'server-error' }, { kind: 'server-error' });
    const twice = await tracker().findIssue('ANV-123');
    expect(!twice.ok && twice.failure.kind).toBe('network');
  });

  it('times out a server that never answers (network failure within the budget)', async () => {
    mock.fault({ kind: 'hang' });
    const started = Date.now();
    const result = await tracker({ timeoutMs: 400 }).findIssue('ANV-123');
    expect(!result.ok && result.failure.kind).toBe('network');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a caller abort stops the request', async () => {
    mock.fault({ kind: 'hang' });
    const controller = new AbortController();
    const pending = tracker({ signal: controller.signal }).findIssue('ANV-123');
    await waitFor(() => mock.requests.length === 1);
    controller.abort();
    const result = await pending;
    expect(result).toEqual({ ok: false, failure: { kind: 'network', message: 'aborted' } });
  });

  it('malformed JSON and a wrong data shape are invalid-response', async () => {
    mock.fault({ kind: 'malformed-json' }, { kind: 'wrong-shape' });
    const malformed = await tracker().findIssue('ANV-123');
    expect(!malformed.ok && malformed.failure.kind).toBe('invalid-response');
    const wrong = await tracker().findIssue('ANV-123');
    expect(!wrong.ok && wrong.failure.kind).toBe('invalid-response');
  });

  it('nothing listening is a network failure', async () => {
    const port = await freePort();
    const result = await createLinearTracker({ endpoint: `http://127.0.0.1:${port}/graphql`, apiKey: KEY, timeoutMs: 2_000 }).findIssue('ANV-1');
    expect(!result.ok && result.failure.kind).toBe('network');
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A port nothing listens on: bind an ephemeral one, then release it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
