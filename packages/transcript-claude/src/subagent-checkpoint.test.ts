import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getCheckpoint, resolveConfig, type CheckpointOutcome, type ConfigFile } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { makeTempDir } from './testing/fixtures.ts';
import { ClaudeSessionWriter } from './testing/subagent-session.ts';

// The engine end to end (getCheckpoint with a real git repository and the real Claude reader): a
// subagent's calls, read from its own transcript, are evidence, errors and attribution of the turn.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const DAEMON: ConfigFile = {
  categories: [{ id: 'daemon', label: 'daemon code', include: ['daemon/**'], action: 'Restart the daemon: `make restart`', evidence: ['make restart'] }],
};
const config = resolveConfig([{ config: DAEMON, source: { kind: 'project-file', name: 'test' } }]);
const PROMPT = 'prompt-subagent-1';
const AGENT = 'a20f94b6eebc13214';
/** ISO time `seconds` ago (the turn must be older than the loop guard's minimum). */
const ago = (seconds: number): string => new Date(Date.now() - seconds * 1000).toISOString();

interface World {
  readonly repo: string;
  readonly env: Record<string, string | undefined>;
  readonly session: ClaudeSessionWriter;
}

function world(): World {
  const { dir, cleanup } = makeTempDir('ac-claude-subagent-engine-');
  cleanups.push(cleanup);
  const root = realpathSync(dir);
  const repo = join(root, 'repo');
  mkdirSync(repo);
  const env = {
    ...process.env,
    HOME: root,
    XDG_CONFIG_HOME: join(root, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(root, '.gitconfig-empty'),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
    GIT_CEILING_DIRECTORIES: root,
    GIT_DIR: undefined,
    GIT_WORK_TREE: undefined,
    GIT_INDEX_FILE: undefined,
  };
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  git('init', '-q', '-b', 'main');
  write(repo, 'daemon/server.py', 'print("v1")\n');
  write(repo, 'README.md', 'readme\n');
  git('add', '-A');
  execFileSync('git', ['commit', '-q', '-m', 'init'], { cwd: repo, env: { ...env, GIT_AUTHOR_DATE: ago(3600), GIT_COMMITTER_DATE: ago(3600) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const projects = join(root, '.claude', 'projects', '-repo');
  mkdirSync(projects, { recursive: true });
  return { repo, env, session: new ClaudeSessionWriter(projects, 'a5e2c0de-0000-4000-8000-000000000001', repo) };
}

/** Write a file; `at` sets its modification time to when the agent wrote it. */
function write(repo: string, path: string, content: string, at?: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
  if (at !== undefined) utimesSync(join(repo, path), new Date(at), new Date(at));
}

/** The main agent delegates; the subagent edits the daemon (and restarts it when `restart`). */
function delegateTurn(w: World, options: { restart: boolean; failingCommand?: boolean }): void {
  const serverPy = join(w.repo, 'daemon/server.py');
  w.session.prompt(PROMPT, 'fix the daemon', ago(120));
  const sub = w.session.subagent(AGENT).prompt(PROMPT, 'SUBAGENT-TASK: fix the daemon', ago(100)).bookkeeping(ago(100));
  sub.toolUse('toolu_sub_read', 'Read', { file_path: serverPy }, ago(95)).toolResult(PROMPT, 'toolu_sub_read', '1\tprint("v1")', ago(94));
  sub.edit(PROMPT, 'toolu_sub_edit', serverPy, ago(90), ago(89));
  write(w.repo, 'daemon/server.py', 'print("v2")\n', ago(90));
  if (options.failingCommand) sub.bash(PROMPT, 'toolu_sub_fail', './scripts/check-config.sh', ago(85), ago(84), 1);
  if (options.restart) sub.bash(PROMPT, 'toolu_sub_restart', 'make restart', ago(80), ago(79));
  w.session.agent(PROMPT, 'toolu_main_agent', AGENT, ago(110), ago(70)).text('Done: the daemon is fixed.', ago(60));
}

/**
 * A background agent: the spawning turn ends while it runs (the hook passes on running
 * `background_tasks`); it edits the daemon (and restarts it when `restart`) after that Stop; its
 * completion notice opens the next turn, which is the one checked.
 */
function backgroundTurns(w: World, options: { restart: boolean }): void {
  const serverPy = join(w.repo, 'daemon/server.py');
  w.session.prompt(PROMPT, 'fix the daemon in the background', ago(200));
  w.session.toolUse('toolu_bg_agent', 'Agent', { description: 'Fix daemon', prompt: 'SUBAGENT-TASK', subagent_type: 'general-purpose' }, ago(190));
  w.session.toolResult(PROMPT, 'toolu_bg_agent', `Async agent launched successfully.\nagentId: ${AGENT} (internal ID - do not mention to user.)`, ago(189), {
    toolUseResult: { isAsync: true, status: 'async_launched', agentId: AGENT },
  });
  w.session.text('Started a background agent.', ago(188));
  const sub = w.session.subagent(AGENT).prompt(PROMPT, 'SUBAGENT-TASK', ago(189));
  sub.toolUse('toolu_bg_read', 'Read', { file_path: serverPy }, ago(150)).toolResult(PROMPT, 'toolu_bg_read', '1\tprint("v1")', ago(149));
  sub.edit(PROMPT, 'toolu_bg_edit', serverPy, ago(140), ago(139));
  // Written before the notification turn began: only the subagent's call ties it to that turn.
  write(w.repo, 'daemon/server.py', 'print("v2")\n', ago(140));
  if (options.restart) sub.bash(PROMPT, 'toolu_bg_restart', 'make restart', ago(130), ago(129));
  w.session.taskNotification(NOTIFICATION, AGENT, 'toolu_bg_agent', ago(120)).text('The background agent finished.', ago(60));
}
const NOTIFICATION = 'prompt-notification-2';

function checkpoint(w: World, turnId = PROMPT): Promise<CheckpointOutcome> {
  return getCheckpoint({
    agent: 'claude',
    cwd: w.repo,
    env: w.env,
    config,
    sessionId: w.session.sessionId,
    transcript: { reader: createClaudeTranscriptReader({ flushWaitMs: 0 }), path: w.session.transcriptPath, hint: { turnId } },
  });
}

describe('getCheckpoint with a subagent doing the work (real git, real Claude reader)', () => {
  it('a subagent that edits daemon code and restarts it: the turn passes', async () => {
    const w = world();
    delegateTurn(w, { restart: true });
    const outcome = await checkpoint(w);
    expect(outcome.timeline?.calls.map((call) => [call.rawName, call.origin?.kind ?? 'main'])).toEqual([
      ['Agent', 'main'],
      ['Read', 'subagent'],
      ['Edit', 'subagent'],
      ['Bash', 'subagent'],
    ]);
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'all-clear' });
    // The edit is attributed to the turn through the subagent's call.
    expect(outcome.files).toEqual([expect.objectContaining({ reason: 'tool-mutation', file: expect.objectContaining({ path: 'daemon/server.py' }) })]);
  });

  it('a subagent that edits daemon code without the restart: blocked, asking for the restart', async () => {
    const w = world();
    delegateTurn(w, { restart: false });
    const outcome = await checkpoint(w);
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.message).toContain('Restart the daemon: `make restart`');
    expect(outcome.message?.startsWith(config.messages.prefix)).toBe(true);
    expect(outcome.message).toContain('daemon code');
  });

  it("a subagent's failing command counts as an error of the turn", async () => {
    const w = world();
    delegateTurn(w, { restart: true, failingCommand: true });
    const outcome = await checkpoint(w);
    expect(outcome.decision).toBe('message');
    const error = outcome.result?.observations.find((o) => o.text.startsWith('A command returned errors'));
    expect(error?.callIds).toEqual(['toolu_sub_fail']);
    expect(outcome.message).toContain('./scripts/check-config.sh');
  });

  it("a background agent's edit + restart, finished after the spawning turn: its notification turn passes", async () => {
    const w = world();
    backgroundTurns(w, { restart: true });
    const outcome = await checkpoint(w, NOTIFICATION);
    expect(outcome.timeline?.calls.map((call) => [call.rawName, call.origin?.kind ?? 'main'])).toEqual([
      ['Read', 'subagent'],
      ['Edit', 'subagent'],
      ['Bash', 'subagent'],
    ]);
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'all-clear' });
  });

  it("a background agent's edit without the restart: its notification turn is blocked", async () => {
    const w = world();
    backgroundTurns(w, { restart: false });
    const outcome = await checkpoint(w, NOTIFICATION);
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.message).toContain('Restart the daemon: `make restart`');
  });
});
