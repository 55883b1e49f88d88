import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinearTracker } from './linear-tracker.ts';
import { parseTrackerSettings } from './tracker-settings.ts';
import { readTrackerOutbox, syncCheckpointWithOutbox, TRACKER_OUTBOX_FILE } from './tracker-outbox.ts';
import { startLinearMock, type LinearMock } from './test-support/linear-mock.ts';

const KEY = 'lin_api_outbox';
let mock: LinearMock;
let stateDir: string;

beforeEach(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'tracker-outbox-'));
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
  rmSync(stateDir, { recursive: true, force: true });
});

const settings = parseTrackerSettings({ enabled: true, l3State: 'In Progress' }).settings;
const tracker = (apiKey = KEY) => createLinearTracker({ endpoint: mock.url, apiKey, timeoutMs: 3_000 });
const at = () => new Date('2026-01-07T11:45:00Z');

describe('syncCheckpointWithOutbox', () => {
  it('queues the action that failed for a passing reason and sends it with the next checkpoint', async () => {
    // The comment's first request meets 503 twice (retry included); state and label go through.
    mock.fault({ kind: 'server-error' }, { kind: 'server-error' });
    const first = await syncCheckpointWithOutbox({ tracker: tracker(), issueId: 'ANV-123', checkpoint: { level: 'L3', percent: 96 }, settings, stateDir, now: at });
    expect(first.current.steps.map((step) => [step.action, step.result.ok])).toEqual([
      ['comment', false],
      ['set-state', true],
      ['add-label', true],
    ]);
    expect(first.pending).toBe(1);
    expect(readTrackerOutbox(stateDir).entries).toEqual([
      { issueId: 'ANV-123', checkpoint: { level: 'L3', percent: 96 }, actions: ['comment'], queuedAt: '2026-01-07T11:45:00.000Z', attempts: 1 },
    ]);
    expect(mock.comments).toEqual([]);

    const second = await syncCheckpointWithOutbox({ tracker: tracker(), issueId: 'ANV-123', checkpoint: { level: 'L2', percent: 86 }, settings, stateDir, now: at });
    expect(second).toMatchObject({ replayed: 1, pending: 0, diagnostics: [] });
    expect(mock.comments.map((comment) => comment.body.split('\n')[0])).toEqual([
      '🔴 **Context checkpoint L3 at 96%**',
      '🔶 **Context checkpoint L2 at 86%**',
    ]);
    expect(readTrackerOutbox(stateDir).entries).toEqual([]);
    // Only the comment was replayed: the state and label were not sent twice.
    expect(mock.requests.filter((r) => r.operationName === 'CheckpointIssueUpdate')).toHaveLength(2);
    expect(mock.violations).toEqual([]);
  });

  it('a replay that still fails keeps the entry and queues the current checkpoint untried', async () => {
    writeFileSync(
      join(stateDir, TRACKER_OUTBOX_FILE),
      JSON.stringify([{ issueId: 'ANV-123', checkpoint: { level: 'L2' }, actions: ['comment'], queuedAt: '2026-01-07T10:00:00.000Z', attempts: 1 }]),
    );
    mock.fault({ kind: 'rate-limited', retryAfterSeconds: 60 });
    const report = await syncCheckpointWithOutbox({ tracker: tracker(), issueId: 'ANV-123', checkpoint: { level: 'L3' }, settings, stateDir, now: at });
    expect(report.current.steps).toEqual([]);
    expect(mock.requests).toHaveLength(1);
    expect(readTrackerOutbox(stateDir).entries.map((entry) => [entry.checkpoint.level, entry.actions, entry.attempts])).toEqual([
      ['L2', ['comment'], 2],
      ['L3', ['comment', 'set-state', 'add-label'], 0],
    ]);
  });

  it('does not queue what retrying cannot fix (auth), and replaces a damaged outbox', async () => {
    writeFileSync(join(stateDir, TRACKER_OUTBOX_FILE), '{"not": "a list"');
    const report = await syncCheckpointWithOutbox({ tracker: tracker('lin_api_revoked'), issueId: 'ANV-123', checkpoint: { level: 'L2' }, settings, stateDir, now: at });
    expect(report.diagnostics[0]).toBe('tracker: outbox damaged; starting a new one');
    expect(report.current.diagnostics).toEqual([expect.stringContaining('(auth)')]);
    expect(report.pending).toBe(0);
    expect(JSON.parse(readFileSync(join(stateDir, TRACKER_OUTBOX_FILE), 'utf8'))).toEqual([]);
  });

  it('drops invalid entries and an entry after five attempts', async () => {
    writeFileSync(
      join(stateDir, TRACKER_OUTBOX_FILE),
      JSON.stringify([
        { issueId: 'ANV-123', checkpoint: { level: 'L9' }, actions: ['comment'], queuedAt: 'x', attempts: 1 },
        { issueId: 'ANV-123', checkpoint: { level: 'L2' }, actions: ['rm -rf'], queuedAt: 'x', attempts: 1 },
        { issueId: 'ANV-123', checkpoint: { level: 'L2' }, actions: ['comment'], queuedAt: '2026-01-01T00:00:00.000Z', attempts: 4 },
      ]),
    );
    expect(readTrackerOutbox(stateDir).entries).toHaveLength(1);
    mock.fault({ kind: 'server-error' }, { kind: 'server-error' });
    const report = await syncCheckpointWithOutbox({ tracker: tracker(), issueId: 'ANV-123', checkpoint: { level: 'L2' }, settings, stateDir, now: at });
    expect(report.diagnostics).toContain('tracker: dropped the update of ANV-123 queued 2026-01-01T00:00:00.000Z after 5 attempts');
    // The replay failed, so the current one is queued untried.
    expect(readTrackerOutbox(stateDir).entries.map((entry) => entry.attempts)).toEqual([0]);
  });

  it('an outbox that is a FIFO or a link to /dev/zero is unreadable at once, never waited on (issue 23)', () => {
    execFileSync('mkfifo', [join(stateDir, TRACKER_OUTBOX_FILE)]);
    expect(readTrackerOutbox(stateDir)).toEqual({ entries: [], problem: 'tracker: outbox unreadable (ENOTREG); starting a new one' });
    rmSync(join(stateDir, TRACKER_OUTBOX_FILE));
    symlinkSync('/dev/zero', join(stateDir, TRACKER_OUTBOX_FILE));
    expect(readTrackerOutbox(stateDir)).toEqual({ entries: [], problem: 'tracker: outbox unreadable (ELOOP); starting a new one' });
  });
});
