import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderCheckpointComment } from './checkpoint-comment.ts';
import { linearIssueSectionLines, linearIssuesFrontMatter } from './linear-front-matter.ts';
import { openIssueTracker } from './open-issue-tracker.ts';
import { syncCheckpointToTracker } from './sync-checkpoint.ts';
import { LINEAR_ENDPOINT_ENV, parseTrackerSettings, type TrackerSettings } from './tracker-settings.ts';
import { startLinearMock, type LinearMock } from './test-support/linear-mock.ts';

const KEY = 'lin_api_sync_test';
let mock: LinearMock;

beforeEach(async () => {
  mock = await startLinearMock({
    apiKey: KEY,
    teams: [{ id: 'team-anv', key: 'ANV' }],
    states: [
      { id: 'st-todo', name: 'Todo', type: 'unstarted', teamId: 'team-anv' },
      { id: 'st-progress', name: 'In Progress', type: 'started', teamId: 'team-anv' },
    ],
    issues: [{ id: 'uuid-123', identifier: 'ANV-123', title: 'OAuth callback', teamId: 'team-anv', stateId: 'st-todo' }],
  });
});
afterEach(async () => {
  await mock.close();
});

function settings(raw: Record<string, unknown>): TrackerSettings {
  const parsed = parseTrackerSettings({ enabled: true, ...raw });
  expect(parsed.diagnostics).toEqual([]);
  return parsed.settings;
}

async function open(s: TrackerSettings, env: Record<string, string | undefined> = { LINEAR_API_KEY: KEY, [LINEAR_ENDPOINT_ENV]: mock.url }) {
  const opened = await openIssueTracker(s, { env });
  if (!opened.ok) throw new Error(opened.message);
  return opened.tracker;
}

const checkpoint = {
  percent: 86,
  handoffPath: '.agent-checkpoint/handoffs/2026-01-07-1145.md',
  summary: ['Implementing the OAuth callback handler', 'Next: handle the token refresh'],
} as const;

describe('syncCheckpointToTracker', () => {
  it('L2: one comment with the handoff path and summary, no state or label change (LIN-002/003)', async () => {
    const s = settings({ l3State: 'In Progress' });
    const report = await syncCheckpointToTracker({ tracker: await open(s), issueId: 'ANV-123', checkpoint: { level: 'L2', ...checkpoint }, settings: s });
    expect(report.diagnostics).toEqual([]);
    expect(report.steps.map((step) => step.action)).toEqual(['comment']);
    expect(mock.comments).toHaveLength(1);
    expect(mock.comments[0]?.body).toContain('Context checkpoint L2 at 86%');
    expect(mock.comments[0]?.body).toContain('`.agent-checkpoint/handoffs/2026-01-07-1145.md`');
    expect(mock.comments[0]?.body).toContain('> Implementing the OAuth callback handler');
    expect(mock.issues[0]?.stateId).toBe('st-todo');
    expect(mock.issues[0]?.labelIds).toEqual([]);
    expect(mock.violations).toEqual([]);
  });

  it('L3: comment, state change and the context-checkpointed label (LIN-001/004)', async () => {
    const s = settings({ l3State: 'In Progress' });
    const report = await syncCheckpointToTracker({ tracker: await open(s), issueId: 'ANV-123', checkpoint: { level: 'L3', ...checkpoint, iteration: 4 }, settings: s });
    expect(report.diagnostics).toEqual([]);
    expect(report.steps.map((step) => step.action)).toEqual(['comment', 'set-state', 'add-label']);
    expect(mock.comments[0]?.body).toMatch(/^🔴 \*\*Iteration 4 · Context checkpoint L3 at 86%\*\*/);
    expect(mock.issues[0]?.stateId).toBe('st-progress');
    const label = mock.labels.find((l) => l.name === 'context-checkpointed');
    expect(label?.teamId).toBe('team-anv');
    expect(mock.issues[0]?.labelIds).toEqual([label?.id]);
    expect(mock.violations).toEqual([]);
  });

  it('L3 without l3State leaves the state; commentOn can drop the L2 comment', async () => {
    const s = settings({ commentOn: ['L3'] });
    const tracker = await open(s);
    const l2 = await syncCheckpointToTracker({ tracker, issueId: 'ANV-123', checkpoint: { level: 'L2' }, settings: s });
    expect(l2.steps).toEqual([]);
    expect(mock.requests).toEqual([]);
    const l3 = await syncCheckpointToTracker({ tracker, issueId: 'ANV-123', checkpoint: { level: 'L3' }, settings: s });
    expect(l3.steps.map((step) => step.action)).toEqual(['comment', 'add-label']);
    expect(mock.issues[0]?.stateId).toBe('st-todo');
  });

  it('an auth failure stops after the first step, with one diagnostic', async () => {
    const s = settings({ l3State: 'In Progress' });
    const tracker = await open(s, { LINEAR_API_KEY: 'lin_api_revoked', [LINEAR_ENDPOINT_ENV]: mock.url });
    const report = await syncCheckpointToTracker({ tracker, issueId: 'ANV-123', checkpoint: { level: 'L3' }, settings: s });
    expect(report.steps).toHaveLength(1);
    expect(report.diagnostics).toEqual([expect.stringMatching(/^tracker: comment on ANV-123 failed \(auth\): /)]);
    expect(mock.requests).toHaveLength(1);
  });

  it('a missing state fails that step only; the label is still set', async () => {
    const s = settings({ l3State: 'Paused' });
    const report = await syncCheckpointToTracker({ tracker: await open(s), issueId: 'ANV-123', checkpoint: { level: 'L3' }, settings: s });
    expect(report.steps.map((step) => [step.action, step.result.ok])).toEqual([
      ['comment', true],
      ['set-state', false],
      ['add-label', true],
    ]);
    expect(report.diagnostics).toEqual(['tracker: set-state on ANV-123 failed (not-found): no workflow state named "Paused" in team ANV']);
  });
});

describe('openIssueTracker', () => {
  it('disabled, no key, or a non-loopback endpoint in the environment: no tracker and no request', async () => {
    expect(await openIssueTracker(parseTrackerSettings({}).settings, { env: { LINEAR_API_KEY: KEY } })).toMatchObject({ ok: false, reason: 'disabled' });
    const s = settings({});
    expect(await openIssueTracker(s, { env: { [LINEAR_ENDPOINT_ENV]: mock.url } })).toMatchObject({ ok: false, reason: 'no-key' });
    expect(await openIssueTracker(s, { env: { LINEAR_API_KEY: '  ' } })).toMatchObject({ ok: false, reason: 'no-key' });
    const refused = await openIssueTracker(s, { env: { LINEAR_API_KEY: KEY, [LINEAR_ENDPOINT_ENV]: 'https://collector.example.com/graphql' } });
    expect(refused).toMatchObject({ ok: false, reason: 'endpoint-refused' });
    expect(mock.requests).toEqual([]);
  });

  it('reads the key from the configured variable, and the loopback override reaches the mock', async () => {
    const s = settings({ apiKeyEnv: 'TEAM_LINEAR_TOKEN' });
    const opened = await openIssueTracker(s, { env: { TEAM_LINEAR_TOKEN: KEY, [LINEAR_ENDPOINT_ENV]: mock.url.replace('127.0.0.1', 'localhost') } });
    expect(opened.ok).toBe(true);
    if (opened.ok) expect((await opened.tracker.findIssue('ANV-123')).ok).toBe(true);
    expect(mock.requests[0]?.headers.authorization).toBe(KEY);
  });
});

describe('rendering', () => {
  it('escapes untrusted summary lines and paths in the comment', () => {
    const body = renderCheckpointComment({
      level: 'L2',
      handoffPath: 'handoffs/a`b.md',
      summary: ['# not a heading', '@everyone [link](https://x.example)\u001b[31m', ''],
    });
    expect(body).toContain('Handoff document: ``handoffs/a`b.md``');
    expect(body).toContain('> \\# not a heading');
    expect(body).not.toContain('\u001b');
    expect(body.split('\n').filter((line) => line.startsWith('> '))).toHaveLength(2);
  });

  it('front matter: linear_issues as one YAML flow list, unsafe ids dropped', () => {
    expect(linearIssuesFrontMatter(['ANV-123'])).toEqual(['linear_issues: [ANV-123]']);
    expect(linearIssuesFrontMatter(['ANV-123', 'OPS-7', 'ANV-123'])).toEqual(['linear_issues: [ANV-123, OPS-7]']);
    expect(linearIssuesFrontMatter(['x]: y', 'a\nb', ''])).toEqual([]);
    expect(linearIssuesFrontMatter([])).toEqual([]);
  });

  it('the HND-003 section shows the issue state', () => {
    expect(
      linearIssueSectionLines({
        id: 'u',
        identifier: 'ANV-123',
        title: 'OAuth callback',
        url: 'https://linear.app/a/issue/ANV-123',
        state: { id: 's', name: 'In Progress', type: 'started' },
        team: { id: 't', key: 'ANV' },
        labels: [{ id: 'l', name: 'context-checkpointed' }],
      }),
    ).toEqual([
      '## Linear Issue',
      '- ANV-123: OAuth callback',
      '- State: In Progress (started) · labels: context-checkpointed',
      '- https://linear.app/a/issue/ANV-123',
    ]);
  });
});
