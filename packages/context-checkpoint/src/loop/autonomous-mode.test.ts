import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CheckpointOutcome, type ConfigFile, getCheckpoint, resolveConfig, type TurnEndExtension } from '@agent-checkpoint/core';
import type { TempGitRepo } from '@agent-checkpoint/core/test-support';
import { contextCheckpointExtension, type ContextCheckpointDetail } from '../extensions/context-checkpoint-extension.ts';
import { CONTEXT_SECTION } from '../config/context-sections.ts';
import { DEFAULT_CONTEXT_CONFIG, DEFAULT_DIRECT_EXECUTION_CONFIG, DEFAULT_HANDOFF_CONFIG, type ContextCheckpointConfig } from '../config/context-config.ts';
import { committedRepo, contextTimeline, staticReader, stateDirOf } from '../steps/test-support/context-turn.ts';
import { writePreCompactHandoff } from '../steps/pre-compact-handoff.ts';
import { AUTONOMOUS_STALE_MS, clearAutonomousFlag, readAutonomousState, withAutonomousMode, writeAutonomousFlag } from './autonomous-mode.ts';

// Seed 003's autonomous mode: a running loop (its flag in the user's state directory) switches direct
// execution on, through the real Stop route's context step and the PreCompact step on real repositories.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const DEFAULTS: ContextCheckpointConfig = { context: DEFAULT_CONTEXT_CONFIG, handoff: DEFAULT_HANDOFF_CONFIG, directExecution: DEFAULT_DIRECT_EXECUTION_CONFIG };
const NOW = new Date('2026-01-07T11:45:00.000Z');
const repo = (): TempGitRepo => committedRepo(cleanups);

function check(r: TempGitRepo, file: ConfigFile, sessionId: string): Promise<CheckpointOutcome> {
  return getCheckpoint({
    agent: 'claude',
    cwd: r.dir,
    env: { ...r.env, AGENT_CHECKPOINT_STATE_DIR: stateDirOf(r) },
    config: resolveConfig([{ config: file, source: { kind: 'user-file', name: '/test' } }], [CONTEXT_SECTION]),
    sessionId,
    transcript: { reader: staticReader(contextTimeline(172_000)), path: '/t.jsonl' },
    extensions: [contextCheckpointExtension as TurnEndExtension],
  });
}
const handoffOf = (o: CheckpointOutcome) => ((o.extensions?.['context-checkpoint'] ?? {}) as ContextCheckpointDetail).context?.handoff;
const CONTEXT = { context: { enabled: true }, handoff: { enabled: true }, directExecution: { duringLoop: true } } as ConfigFile;
const DEFAULT_CONTEXT = { context: { enabled: true }, handoff: { enabled: true } } as ConfigFile;
const commits = (r: TempGitRepo): number => Number(r.git(['rev-list', '--count', 'HEAD']).trim());

describe('the autonomous-mode flag', () => {
  it('is written in the state directory (0600), keyed by project, and is found from a subdirectory', () => {
    const r = repo();
    const stateDir = stateDirOf(r);
    expect(readAutonomousState({ stateDir, projectRoot: r.dir, now: NOW })).toEqual({ kind: 'inactive', reason: 'no-flag' });
    writeAutonomousFlag({ stateDir, projectRoot: r.dir, now: NOW });
    const [file] = readdirSync(join(stateDir, 'autonomous'));
    expect(file).toMatch(/^[0-9a-f]{16}\.json$/);
    expect(statSync(join(stateDir, 'autonomous', file ?? '')).mode & 0o777).toBe(0o600);
    expect(readAutonomousState({ stateDir, projectRoot: join(r.dir, 'src'), now: NOW })).toMatchObject({ kind: 'active', flag: { started_at: NOW.toISOString() } });
    // Another project has no flag.
    const other = repo();
    expect(readAutonomousState({ stateDir, projectRoot: other.dir, now: NOW }).kind).toBe('inactive');
  });

  it('goes stale 6 hours after the last refresh; a refresh keeps started_at', () => {
    const r = repo();
    const stateDir = stateDirOf(r);
    writeAutonomousFlag({ stateDir, projectRoot: r.dir, now: NOW });
    const later = new Date(NOW.getTime() + AUTONOMOUS_STALE_MS - 1000);
    writeAutonomousFlag({ stateDir, projectRoot: r.dir, now: later });
    const fresh = readAutonomousState({ stateDir, projectRoot: r.dir, now: new Date(later.getTime() + AUTONOMOUS_STALE_MS - 1000) });
    expect(fresh).toMatchObject({ kind: 'active', flag: { started_at: NOW.toISOString(), refreshed_at: later.toISOString() } });
    expect(readAutonomousState({ stateDir, projectRoot: r.dir, now: new Date(later.getTime() + AUTONOMOUS_STALE_MS + 1000) })).toMatchObject({ kind: 'inactive', reason: 'stale' });
  });

  it('loop end clears it', async () => {
    const r = repo();
    const stateDir = stateDirOf(r);
    writeAutonomousFlag({ stateDir, projectRoot: r.dir, now: NOW });
    expect(await clearAutonomousFlag({ stateDir, projectRoot: r.dir })).toBe(true);
    expect(await clearAutonomousFlag({ stateDir, projectRoot: r.dir })).toBe(false);
    expect(readAutonomousState({ stateDir, projectRoot: r.dir, now: NOW }).kind).toBe('inactive');
  });

  it('a malformed flag, a FIFO-free directory in its place, or another project\'s copied flag counts as off', () => {
    const r = repo();
    const stateDir = stateDirOf(r);
    const flag = writeAutonomousFlag({ stateDir, projectRoot: r.dir, now: NOW });
    const [file = ''] = readdirSync(join(stateDir, 'autonomous'));
    const path = join(stateDir, 'autonomous', file);
    writeFileSync(path, '{"version":1}');
    expect(readAutonomousState({ stateDir, projectRoot: r.dir, now: NOW })).toMatchObject({ kind: 'inactive', reason: 'invalid' });
    writeFileSync(path, JSON.stringify({ ...flag, project: '/somewhere/else' }));
    expect(readAutonomousState({ stateDir, projectRoot: r.dir, now: NOW })).toMatchObject({ kind: 'inactive', reason: 'other-project' });
  });

  it('precedence: enabled wins; duringLoop (opt-in) lets the flag supply enabled, and only enabled', async () => {
    const r = repo();
    const stateDir = stateDirOf(r);
    const base = DEFAULTS;
    expect(base.directExecution.duringLoop).toBe(false);
    writeAutonomousFlag({ stateDir, projectRoot: r.dir, now: NOW });
    expect(withAutonomousMode(base, { stateDir, projectRoot: r.dir, now: NOW }).autonomous).toBe(false);
    await clearAutonomousFlag({ stateDir, projectRoot: r.dir });
    const restricted = { ...base, directExecution: { ...base.directExecution, duringLoop: true, commit: false, push: false, gitHooks: [] } };
    const where = { stateDir, projectRoot: r.dir, now: NOW };
    expect(withAutonomousMode(restricted, where)).toMatchObject({ autonomous: false, config: { directExecution: { enabled: false } } });
    writeAutonomousFlag({ stateDir, projectRoot: r.dir, now: NOW });
    const on = withAutonomousMode(restricted, where);
    expect(on.autonomous).toBe(true);
    expect(on.config.directExecution).toEqual({ ...restricted.directExecution, enabled: true });
    expect(withAutonomousMode({ ...restricted, directExecution: { ...restricted.directExecution, duringLoop: false } }, where).config.directExecution.enabled).toBe(false);
    expect(withAutonomousMode(restricted, { ...where, stateDir: undefined }).autonomous).toBe(false);
    const enabled = { ...restricted, directExecution: { ...restricted.directExecution, enabled: true } };
    expect(withAutonomousMode(enabled, where)).toEqual({ config: enabled, autonomous: false });
  });
});

describe('a running loop switches direct execution on', { timeout: 60_000 }, () => {
  it('the Stop route at L2: no flag, the handoff only; with the flag, the WIP commit; after loop end, the handoff only again', async () => {
    const r = repo();
    const stateDir = stateDirOf(r);
    const base = commits(r);
    r.write('src/app.py', 'print(2)\n');
    expect(handoffOf(await check(r, CONTEXT, 's1'))).toMatchObject({ mode: 'ask-agent' });
    expect(commits(r)).toBe(base);

    writeAutonomousFlag({ stateDir, projectRoot: r.dir, now: new Date() });
    expect(handoffOf(await check(r, CONTEXT, 's2'))).toMatchObject({ mode: 'direct', status: 'done' });
    expect(commits(r)).toBe(base + 1);
    expect(r.git(['show', '--name-only', '--format=', 'HEAD']).split('\n')).toEqual(expect.arrayContaining(['CLAUDE.md', 'src/app.py']));

    await clearAutonomousFlag({ stateDir, projectRoot: r.dir });
    r.write('src/app.py', 'print(3)\n');
    expect(handoffOf(await check(r, CONTEXT, 's3'))).toMatchObject({ mode: 'ask-agent' });
    expect(commits(r)).toBe(base + 1);
  });

  it('the privileged configuration still decides: commit false makes no commit; without duringLoop (the default) it stays off', async () => {
    const r = repo();
    const base = commits(r);
    writeAutonomousFlag({ stateDir: stateDirOf(r), projectRoot: r.dir, now: new Date() });
    r.write('src/app.py', 'print(2)\n');
    expect(handoffOf(await check(r, { ...CONTEXT, directExecution: { duringLoop: true, commit: false } } as ConfigFile, 's1'))).toMatchObject({ mode: 'direct', status: 'done' });
    expect(commits(r)).toBe(base);
    r.write('src/app.py', 'print(3)\n');
    expect(handoffOf(await check(r, DEFAULT_CONTEXT, 's2'))).toMatchObject({ mode: 'ask-agent' });
    expect(commits(r)).toBe(base);
  });

  it('a flag planted in the working tree (the seed\'s autonomous-mode.active, or ours copied there) does not count', async () => {
    const r = repo();
    const base = commits(r);
    mkdirSync(join(r.dir, '.agent-checkpoint', 'autonomous'), { recursive: true });
    writeFileSync(join(r.dir, '.agent-checkpoint', 'autonomous-mode.active'), '');
    const elsewhere = join(r.dir, '.agent-checkpoint');
    writeAutonomousFlag({ stateDir: elsewhere, projectRoot: r.dir, now: new Date() });
    writeFileSync(join(r.dir, 'autonomous-mode.active'), '');
    r.write('src/app.py', 'print(2)\n');
    expect(handoffOf(await check(r, CONTEXT, 's1'))).toMatchObject({ mode: 'ask-agent' });
    expect(commits(r)).toBe(base);
    // The same flag where `loop start` writes it does count.
    writeAutonomousFlag({ stateDir: stateDirOf(r), projectRoot: r.dir, now: new Date() });
    r.write('src/app.py', 'print(3)\n');
    expect(handoffOf(await check(r, CONTEXT, 's2'))).toMatchObject({ mode: 'direct', status: 'done' });
    expect(commits(r)).toBe(base + 1);
  });

  it('PreCompact: with the flag, the direct checkpoint', async () => {
    const r = repo();
    const stateDir = stateDirOf(r);
    const base = commits(r);
    writeAutonomousFlag({ stateDir, projectRoot: r.dir, now: new Date() });
    r.write('src/app.py', 'print(2)\n');
    const outcome = await check(r, { context: { enabled: false } } as ConfigFile, 'plain');
    const result = await writePreCompactHandoff({
      agent: 'claude',
      sessionId: 'pc',
      outcome: { ...outcome, timeline: contextTimeline(150_000) },
      cwd: r.dir,
      config: { ...DEFAULTS, handoff: { ...DEFAULTS.handoff, enabled: true }, directExecution: { ...DEFAULTS.directExecution, duringLoop: true } },
      auto: true,
      stateDir,
      now: new Date(),
      env: r.env,
      signal: AbortSignal.timeout(30_000),
    });
    expect(result.code).toBe('written');
    expect(commits(r)).toBe(base + 1);
  });
});
