import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CheckpointOutcome, type ConfigFile, getCheckpoint, loadConfig, type ResolvedConfig, resolveConfig, type TurnEndExtension, type TurnTimeline } from '@agent-checkpoint/core';
import type { TempGitRepo } from '@agent-checkpoint/core/test-support';
import { contextCheckpointExtension, type ContextCheckpointDetail } from '../extensions/context-checkpoint-extension.ts';
import { CONTEXT_SECTION, TRACKER_SECTION } from '../config/context-sections.ts';
import { trackerSettingsOf } from '../config/context-config.ts';
import { readTrackerOutbox } from '../tracker/tracker-outbox.ts';
import { LOOKUP_BUDGET_MS } from './tracker-step.ts';
import { DEFAULT_ISSUE_PATTERN, LINEAR_ENDPOINT_ENV } from '../tracker/tracker-settings.ts';
import { startLinearMock, type LinearMock } from '../tracker/test-support/linear-mock.ts';
import { contextCheckpointSections } from '../load-turn-end-extensions.ts';
import { committedRepo, contextTimeline, loadUntrustedProjectConfig, staticReader, stateDirOf } from './test-support/context-turn.ts';

// The tracker wired into the Stop route's context step (LIN-001..004, HND-003), through getCheckpoint
// on real git repositories against the loopback Linear mock.

const KEY = 'lin_api_wiring_test';
const cleanups: (() => void | Promise<void>)[] = [];
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
  cleanups.push(() => mock.close());
});
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const repo = (branch = 'feature/ANV-123-oauth'): TempGitRepo => committedRepo(cleanups, branch);

let n = 0;
const timeline = (contextTokens: number): TurnTimeline => contextTimeline(contextTokens, 'Implement the OAuth callback');
const reader = staticReader;

const configOf = (file: ConfigFile): ResolvedConfig =>
  resolveConfig([{ config: file, source: { kind: 'user-file', name: 'test' } }], [CONTEXT_SECTION, TRACKER_SECTION]);

function check(r: TempGitRepo, tokens: number, config: ResolvedConfig, env: Record<string, string | undefined> = { LINEAR_API_KEY: KEY, [LINEAR_ENDPOINT_ENV]: mock.url }): Promise<CheckpointOutcome> {
  return getCheckpoint({
    agent: 'claude',
    cwd: r.dir,
    env: { ...r.env, AGENT_CHECKPOINT_STATE_DIR: stateDirOf(r), ...env },
    config,
    sessionId: `s-${++n}`,
    transcript: { reader: reader(timeline(tokens)), path: '/t.jsonl' },
    extensions: [contextCheckpointExtension as TurnEndExtension],
  });
}
const handoffOf = (o: CheckpointOutcome) => ((o.extensions?.['context-checkpoint'] ?? {}) as ContextCheckpointDetail).context?.handoff;
const TRACKED = { context: { enabled: true }, handoff: { enabled: true }, tracker: { enabled: true, l3State: 'In Progress' } } as ConfigFile;

describe('the tracker at a handoff checkpoint', { timeout: 60_000 }, () => {
  it('L2: one commentCreate naming the handoff; the handoff carries linear_issues and a Linear Issue section (LIN-002/003, HND-003)', async () => {
    const r = repo();
    const outcome = await check(r, 172_000, configOf(TRACKED));
    const path = handoffOf(outcome)?.path ?? '';
    expect(path).toMatch(/^\.agent-checkpoint\/handoffs\//);
    expect(mock.violations).toEqual([]);
    expect(mock.requests.filter((q) => q.operationName === 'CheckpointCommentCreate')).toHaveLength(1);
    expect(mock.requests.map((q) => q.operationName)).not.toContain('CheckpointIssueUpdate');
    expect(mock.comments).toHaveLength(1);
    expect(mock.comments[0]).toMatchObject({ issueId: 'uuid-123' });
    expect(mock.comments[0]?.body).toContain('Context checkpoint L2 at 86%');
    expect(mock.comments[0]?.body).toContain(`\`${path}\``);
    expect(mock.comments[0]?.body).toContain('`feature/ANV-123-oauth`');
    const handoff = readFileSync(join(r.dir, path), 'utf8');
    expect(handoff.split('\n---\n')[0]).toContain('\nlinear_issues: [ANV-123]');
    expect(handoff).toContain('## Linear Issue\n\n- ANV-123: OAuth callback\n- State: Todo (unstarted)');
    expect(outcome.diagnostics.filter((d) => d.startsWith('tracker'))).toEqual([]);
    expect(mock.issues[0]?.stateId).toBe('st-todo');
  });

  it('L3: comment, the move to l3State and the context-checkpointed label (LIN-001/004)', async () => {
    const r = repo();
    const outcome = await check(r, 192_000, configOf(TRACKED));
    expect(handoffOf(outcome)?.level).toBe('L3');
    expect(mock.violations).toEqual([]);
    expect(mock.comments).toHaveLength(1);
    expect(mock.comments[0]?.body).toContain('Context checkpoint L3');
    expect(mock.issues[0]?.stateId).toBe('st-progress');
    const label = mock.labels.find((l) => l.name === 'context-checkpointed');
    expect(label).toBeDefined();
    expect(mock.issues[0]?.labelIds).toContain(label?.id);
  });

  it('the direct execution path syncs too, after its handoff', async () => {
    const r = repo();
    r.write('src/app.py', 'print(2)\n');
    const outcome = await check(r, 172_000, configOf({ ...TRACKED, directExecution: { enabled: true } } as ConfigFile));
    expect(handoffOf(outcome)).toMatchObject({ mode: 'direct', status: 'done' });
    expect(mock.comments).toHaveLength(1);
    expect(mock.comments[0]?.body).toContain(handoffOf(outcome)?.path ?? 'no path');
    expect(readFileSync(join(r.dir, handoffOf(outcome)?.path ?? ''), 'utf8')).toContain('linear_issues: [ANV-123]');
  });

  it('disabled (the default): no request, no linear_issues', async () => {
    const r = repo();
    const outcome = await check(r, 172_000, configOf({ context: { enabled: true }, handoff: { enabled: true } } as ConfigFile));
    const path = handoffOf(outcome)?.path ?? '';
    expect(path).not.toBe('');
    expect(mock.requests).toEqual([]);
    expect(readFileSync(join(r.dir, path), 'utf8')).not.toContain('linear_issues');
  });

  it('an untrusted project file cannot turn it on: no request, a diagnostic', async () => {
    const r = repo();
    const loaded = await loadUntrustedProjectConfig(r, TRACKED);
    expect(trackerSettingsOf(loaded.config).enabled).toBe(false);
    expect(loaded.diagnostics.join('\n')).toContain('tracker.enabled');
    const outcome = await check(r, 172_000, loaded.config);
    expect(handoffOf(outcome)?.path).toBeDefined();
    expect(mock.requests).toEqual([]);
  });

  it('Linear down: the checkpoint still completes; the update waits in the outbox with a diagnostic', async () => {
    const r = repo();
    const url = mock.url;
    await mock.close();
    const outcome = await check(r, 172_000, configOf(TRACKED), { LINEAR_API_KEY: KEY, [LINEAR_ENDPOINT_ENV]: url });
    const path = handoffOf(outcome)?.path ?? '';
    expect(path).toMatch(/^\.agent-checkpoint\/handoffs\//);
    expect(outcome.diagnostics.filter((d) => d.startsWith('tracker'))).toEqual([
      'tracker: reading ANV-123 failed (network): fetch failed (ECONNREFUSED)',
      'tracker: comment on ANV-123 failed (network): fetch failed (ECONNREFUSED)',
      'tracker: 1 update(s) queued in the outbox; sent at the next checkpoint',
    ]);
    const { entries } = readTrackerOutbox(stateDirOf(r));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ issueId: 'ANV-123', actions: ['comment'], checkpoint: { level: 'L2', handoffPath: path } });
    // The handoff still names the issue, without a state the tracker did not give.
    expect(readFileSync(join(r.dir, path), 'utf8')).toContain('- ANV-123 (state unknown: the tracker did not answer)');
  });

  it('a hanging issue lookup holds the handoff up for its short budget only, not tracker.timeoutMs', async () => {
    const r = repo();
    mock.fault({ kind: 'hang' });
    const started = Date.now();
    const outcome = await check(r, 172_000, configOf({ ...TRACKED, tracker: { enabled: true, timeoutMs: 10_000 } } as ConfigFile));
    const elapsed = Date.now() - started;
    const path = handoffOf(outcome)?.path ?? '';
    expect(path).toMatch(/^\.agent-checkpoint\/handoffs\//);
    expect(elapsed).toBeLessThan(LOOKUP_BUDGET_MS + 5_000);
    expect(outcome.diagnostics.some((d) => d.startsWith('tracker: reading ANV-123 failed'))).toBe(true);
    // The comment after the write still goes out.
    expect(mock.comments).toHaveLength(1);
    expect(readFileSync(join(r.dir, path), 'utf8')).toContain('- ANV-123 (state unknown: the tracker did not answer)');
  });

  it('a branch without an issue id: no request, a diagnostic', async () => {
    const r = repo('feature/oauth');
    const outcome = await check(r, 172_000, configOf(TRACKED));
    expect(handoffOf(outcome)?.path).toBeDefined();
    expect(mock.requests).toEqual([]);
    expect(outcome.diagnostics.join('\n')).toContain('no issue id');
  });

  it('an untrusted project file cannot choose the issue pattern: a backtracking one on a long branch name is ignored, the checkpoint finishes fast', async () => {
    // The user's own file turns the tracker on; the cloned repository's file names a pattern that takes
    // 2^n steps on `a…a-` (JavaScript's engine backtracks), which once held the hook for good.
    const r = repo(`feature/${'a'.repeat(120)}-`);
    const home = join(r.dir, '..', 'home');
    mkdirSync(join(home, '.config', 'agent-checkpoint'), { recursive: true });
    writeFileSync(join(home, '.config', 'agent-checkpoint', 'config.json'), JSON.stringify(TRACKED));
    writeFileSync(join(r.dir, '.agent-checkpoint.json'), JSON.stringify({ tracker: { issuePattern: '^feature/(a+)+$' } }));
    const loaded = await loadConfig({
      cwd: realpathSync(r.dir),
      homeDir: home,
      env: { XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined, AGENT_CHECKPOINT_CONFIG: undefined, AGENT_CHECKPOINT_STATE_DIR: undefined },
      cacheDir: false,
      stateDir: stateDirOf(r),
      sections: contextCheckpointSections,
    });
    expect(trackerSettingsOf(loaded.config)).toMatchObject({ enabled: true, issuePattern: DEFAULT_ISSUE_PATTERN });
    expect(loaded.diagnostics.join('\n')).toContain('tracker.issuePattern');
    const started = Date.now();
    const outcome = await check(r, 172_000, loaded.config);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(handoffOf(outcome)?.path).toBeDefined();
    expect(mock.requests).toEqual([]);
    expect(outcome.diagnostics.join('\n')).toContain('no issue id');
  });
});
