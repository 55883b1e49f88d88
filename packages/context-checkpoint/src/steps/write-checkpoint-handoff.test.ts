import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CheckpointOutcome, type ConfigFile, getCheckpoint, type ResolvedConfig, resolveConfig, type TurnEndExtension, type TurnTimeline } from '@agent-checkpoint/core';
import type { TempGitRepo } from '@agent-checkpoint/core/test-support';
import { contextCheckpointExtension, type ContextCheckpointDetail } from '../extensions/context-checkpoint-extension.ts';
import { CONTEXT_SECTION, MEMORY_SECTION, TRACKER_SECTION } from '../config/context-sections.ts';
import { contextCheckpointConfigOf, handoffServicesOf, memorySettingsOf } from '../config/context-config.ts';
import { latestHandoff } from '../handoff/latest-handoff.ts';
import { renderResumePrompt } from '../handoff/render-resume.ts';
import { LINEAR_ENDPOINT_ENV } from '../tracker/tracker-settings.ts';
import { startLinearMock, type LinearMock } from '../tracker/test-support/linear-mock.ts';
import { startClaudeMemMock, type ClaudeMemMock } from '../memory-service/test-support/claude-mem-mock.ts';
import { fetchMemoryResumeExtras, memoryResumeSection, saveMemoryAfterHandoff } from './memory-step.ts';
import { writePreCompactHandoff } from './pre-compact-handoff.ts';
import { claimResumeHandoff } from './resume-handoff.ts';
import { prepareTrackerIssue, syncTrackerAfterHandoff } from './tracker-step.ts';
import { committedRepo, contextTimeline, loadUntrustedProjectConfig, staticReader, stateDirOf } from './test-support/context-turn.ts';

// The tracker and claude-mem on every handoff route (issue 14 points 6 and 7): the PreCompact handoff
// and the Stop route through `writeCheckpointHandoff`, once-only announcements, the resume side. Real
// git repositories, the loopback Linear mock and the loopback claude-mem worker mock.

const KEY = 'lin_api_every_route';
const cleanups: (() => void | Promise<void>)[] = [];
let linear: LinearMock;
let mem: ClaudeMemMock;

beforeEach(async () => {
  linear = await startLinearMock({
    apiKey: KEY,
    teams: [{ id: 'team-anv', key: 'ANV' }],
    states: [
      { id: 'st-todo', name: 'Todo', type: 'unstarted', teamId: 'team-anv' },
      { id: 'st-progress', name: 'In Progress', type: 'started', teamId: 'team-anv' },
    ],
    issues: [{ id: 'uuid-123', identifier: 'ANV-123', title: 'OAuth callback', teamId: 'team-anv', stateId: 'st-todo' }],
  });
  mem = await startClaudeMemMock();
  cleanups.push(() => linear.close(), () => mem.close());
});
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const repo = (branch = 'feature/ANV-123-oauth'): TempGitRepo => committedRepo(cleanups, branch);

let n = 0;
const timeline = (contextTokens: number): TurnTimeline => contextTimeline(contextTokens, 'Implement the OAuth callback');
const reader = staticReader;
const configOf = (file: ConfigFile): ResolvedConfig => resolveConfig([{ config: file, source: { kind: 'user-file', name: 'test' } }], [CONTEXT_SECTION, TRACKER_SECTION, MEMORY_SECTION]);
const servicesEnv = (): Record<string, string> => ({
  LINEAR_API_KEY: KEY,
  [LINEAR_ENDPOINT_ENV]: linear.url,
  CLAUDE_MEM_WORKER_HOST: '127.0.0.1',
  CLAUDE_MEM_WORKER_PORT: String(mem.port),
  CLAUDE_MEM_DATA_DIR: '/nonexistent-claude-mem',
});

const BOTH = { context: { enabled: true }, handoff: { enabled: true }, tracker: { enabled: true, l3State: 'In Progress' }, memory: { enabled: true } } as ConfigFile;

/** The turn so far as the PreCompact route reads it (the pipeline without the context step). */
function turnSoFar(r: TempGitRepo, tokens: number): Promise<CheckpointOutcome> {
  return getCheckpoint({ agent: 'claude', cwd: r.dir, env: { ...r.env, AGENT_CHECKPOINT_STATE_DIR: stateDirOf(r) }, config: configOf({}), sessionId: 's-pre', transcript: { reader: reader(timeline(tokens)), path: '/t.jsonl' } });
}

async function preCompact(r: TempGitRepo, tokens: number, config: ResolvedConfig) {
  return writePreCompactHandoff({
    agent: 'claude',
    sessionId: 's-pre',
    outcome: await turnSoFar(r, tokens),
    cwd: r.dir,
    config: contextCheckpointConfigOf(config),
    services: handoffServicesOf(config),
    auto: true,
    stateDir: stateDirOf(r),
    now: new Date(),
    env: { ...r.env, ...servicesEnv() },
    signal: AbortSignal.timeout(20_000),
  });
}

describe('the PreCompact handoff tells the tracker and claude-mem', { timeout: 60_000 }, () => {
  it('below L3: the handoff names the issue; one comment (no state change) and one L2 observation', async () => {
    const r = repo();
    const step = await preCompact(r, 172_000, configOf(BOTH));
    expect(step.code).toBe('written');
    expect(step.warnings).toEqual([]);
    const handoff = readFileSync(join(r.dir, step.written ?? ''), 'utf8');
    expect(handoff.split('\n---\n')[0]).toContain('\nlinear_issues: [ANV-123]');
    expect(handoff).toContain('## Linear Issue');
    expect(linear.violations).toEqual([]);
    expect(linear.comments).toHaveLength(1);
    expect(linear.comments[0]?.body).toContain('Context checkpoint L2 at 86%');
    expect(linear.comments[0]?.body).toContain(`\`${step.written}\``);
    expect(linear.issues[0]?.stateId).toBe('st-todo');
    expect(mem.violations).toEqual([]);
    expect(mem.observations.map((o) => o.title)).toEqual(['Context Checkpoint L2 at 86% - ANV-123']);
    expect(mem.observations[0]?.project).toBe(r.dir.split('/').pop());
    expect(mem.observations[0]?.narrative).toContain(`Handoff document: ${step.written}`);
  });

  it('at L3: comment, the move to l3State and the label', async () => {
    const r = repo();
    const step = await preCompact(r, 192_000, configOf(BOTH));
    expect(step.code).toBe('written');
    expect(linear.comments[0]?.body).toContain('Context checkpoint L3 at 96%');
    expect(linear.issues[0]?.stateId).toBe('st-progress');
    expect(linear.issues[0]?.labelIds).toHaveLength(1);
    expect(mem.observations.map((o) => o.title)).toEqual(['Context Checkpoint L3 at 96% - ANV-123']);
  });

  it('both off (the default): the handoff is written, no request to either', async () => {
    const r = repo();
    const step = await preCompact(r, 192_000, configOf({ context: { enabled: true }, handoff: { enabled: true } } as ConfigFile));
    expect(step.code).toBe('written');
    expect(readFileSync(join(r.dir, step.written ?? ''), 'utf8')).not.toContain('linear_issues');
    expect(linear.requests).toEqual([]);
    expect(mem.requests).toEqual([]);
  });
});

describe('claude-mem on the Stop route', { timeout: 60_000 }, () => {
  const stop = (r: TempGitRepo, config: ResolvedConfig) =>
    getCheckpoint({
      agent: 'claude',
      cwd: r.dir,
      env: { ...r.env, AGENT_CHECKPOINT_STATE_DIR: stateDirOf(r), ...servicesEnv() },
      config,
      sessionId: `s-${++n}`,
      transcript: { reader: reader(timeline(172_000)), path: '/t.jsonl' },
      extensions: [contextCheckpointExtension as TurnEndExtension],
    });
  const handoffOf = (o: CheckpointOutcome) => ((o.extensions?.['context-checkpoint'] ?? {}) as ContextCheckpointDetail).context?.handoff;

  it('saves one checkpoint observation for the L2 handoff (MEM-001/002)', async () => {
    const r = repo();
    const outcome = await stop(r, configOf(BOTH));
    const path = handoffOf(outcome)?.path ?? '';
    expect(path).toMatch(/^\.agent-checkpoint\/handoffs\//);
    expect(mem.violations).toEqual([]);
    expect(mem.observations).toHaveLength(1);
    expect(mem.observations[0]?.title).toBe('Context Checkpoint L2 at 86% - ANV-123');
    expect(JSON.parse(mem.observations[0]?.metadata ?? '{}')).toMatchObject({ concepts: ['checkpoint'], level: 'L2', handoff: path, issue: 'ANV-123' });
    expect(linear.comments).toHaveLength(1);
  });

  it('memory off: no request to the worker, the tracker still comments', async () => {
    const r = repo();
    await stop(r, configOf({ ...BOTH, memory: { enabled: false } } as ConfigFile));
    expect(mem.requests).toEqual([]);
    expect(linear.comments).toHaveLength(1);
  });

  it('a worker that is not running is a diagnostic, never a failed checkpoint', async () => {
    const r = repo();
    await mem.close();
    const outcome = await stop(r, configOf(BOTH));
    expect(handoffOf(outcome)?.status).toBe('written');
    expect(outcome.diagnostics.filter((d) => d.startsWith('claude-mem'))).toEqual([expect.stringMatching(/^claude-mem: saving the checkpoint failed \(unavailable\): claude-mem worker not running at http:\/\/127\.0\.0\.1:\d+$/)]);
  });

  it('an untrusted project file cannot turn memory on (privileged), nor the tracker', async () => {
    const r = repo();
    const loaded = await loadUntrustedProjectConfig(r, BOTH);
    expect(memorySettingsOf(loaded.config).enabled).toBe(false);
    expect(loaded.diagnostics.join('\n')).toContain('memory.enabled');
    const outcome = await stop(r, loaded.config);
    expect(handoffOf(outcome)?.path).toBeDefined();
    expect(mem.requests).toEqual([]);
    expect(linear.requests).toEqual([]);
  });
});

describe('announcements are once per (session, level, handoff)', { timeout: 60_000 }, () => {
  it('announcing the same handoff twice posts one comment and saves one observation; another session or level announces again', async () => {
    const r = repo();
    const settings = handoffServicesOf(configOf(BOTH));
    const where = { projectRoot: r.dir, env: servicesEnv() };
    const diagnostics: string[] = [];
    const prepared = await prepareTrackerIssue(settings.tracker, where, diagnostics);
    const checkpoint = { level: 'L2' as const, percent: 86, handoffPath: '.agent-checkpoint/handoffs/2026-01-07-1145.md' };
    const now = new Date();
    for (let i = 0; i < 2; i++) {
      await syncTrackerAfterHandoff(prepared, checkpoint, stateDirOf(r), diagnostics, { sessionId: 's-1', now });
      await saveMemoryAfterHandoff(settings.memory, checkpoint, { ...where, stateDir: stateDirOf(r), sessionId: 's-1', now }, diagnostics);
    }
    expect(diagnostics).toEqual([]);
    expect(linear.comments).toHaveLength(1);
    expect(mem.observations).toHaveLength(1);
    await syncTrackerAfterHandoff(prepared, checkpoint, stateDirOf(r), diagnostics, { sessionId: 's-2', now });
    await syncTrackerAfterHandoff(prepared, { ...checkpoint, level: 'L3' }, stateDirOf(r), diagnostics, { sessionId: 's-1', now });
    expect(linear.comments).toHaveLength(3);
  });
});

describe('the Memory Query section on resume (MEM-003..006)', { timeout: 60_000 }, () => {
  async function handoffIn(r: TempGitRepo, tokens: number) {
    const step = await preCompact(r, tokens, configOf(BOTH));
    expect(step.code).toBe('written');
    const latest = await latestHandoff(r.dir, { now: new Date(), maxAgeMs: 3_600_000 });
    if (latest === undefined) throw new Error('no handoff');
    return latest;
  }

  it('SessionStart: the injected context carries the section when memory is on, and not when off', async () => {
    const r = repo();
    await handoffIn(r, 172_000);
    const on = await claimResumeHandoff({ projectRoot: r.dir, stateDir: stateDirOf(r), now: new Date(), agent: 'claude', memory: memorySettingsOf(configOf(BOTH)) });
    expect(on.kind).toBe('inject');
    if (on.kind !== 'inject') return;
    expect(on.context).toContain('### Memory Query (Run First)');
    expect(on.context).toContain('`search` with query="Context Checkpoint checkpoint"');
    expect(on.context).toContain(`Then read the handoff document \`${on.handoff.relativePath}\``);
    const r2 = repo();
    await handoffIn(r2, 172_000);
    const off = await claimResumeHandoff({ projectRoot: r2.dir, stateDir: stateDirOf(r2), now: new Date(), agent: 'claude', memory: memorySettingsOf(configOf({})) });
    expect(off.kind === 'inject' && off.context).not.toContain('Memory Query');
  });

  it('loop runner: the newest checkpoint observation anchors the timeline query, the recent context is fenced as data', async () => {
    const r = repo();
    const latest = await handoffIn(r, 192_000);
    mem.sessions.push({ project: r.dir.split('/').pop() ?? '', request: 'Implement OAuth', next_steps: 'Token refresh' });
    const settings = memorySettingsOf(configOf(BOTH));
    const diagnostics: string[] = [];
    const extras = await fetchMemoryResumeExtras(settings, latest, { projectRoot: r.dir, env: servicesEnv() }, diagnostics);
    expect(diagnostics).toEqual([]);
    expect(extras.observationId).toBe(mem.observations[0]?.id);
    const prompt = renderResumePrompt(latest, memoryResumeSection(settings, latest, extras));
    expect(prompt).toMatch(/### Resume From[\s\S]*### Memory Query \(Run First\)[\s\S]*### Instructions/);
    expect(prompt).toContain(`\`timeline\` with anchor=${extras.observationId}, depth_before=10`);
    expect(prompt).toContain('**Next Steps:** Token refresh');
    expect(prompt).toContain('2. Run the memory queries above, then read the handoff document.');
    // Off: the prompt is the one it always was, and nothing is asked.
    const before = mem.requests.length;
    const off = memorySettingsOf(configOf({}));
    expect(await fetchMemoryResumeExtras(off, latest, { projectRoot: r.dir, env: servicesEnv() }, diagnostics)).toEqual({});
    expect(renderResumePrompt(latest, memoryResumeSection(off, latest))).toBe(renderResumePrompt(latest));
    expect(mem.requests).toHaveLength(before);
  });
});
