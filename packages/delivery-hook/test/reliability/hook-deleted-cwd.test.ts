import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, DELIVERY_FIXTURES } from '../../src/test-support/delivery-fixtures.ts';
import { runHookBundle, type HookProcessResult } from '../../src/test-support/run-hook-bundle.ts';
import { expectAgentContract, payloadFor, runScenario } from './support.ts';

// A removed worktree (docs/reliability.md, "A deleted working directory"): the agent keeps running in
// a directory that no longer exists, so the hook process starts there and process.cwd() throws. The
// hook must work from the payload's cwd as usual; the set-up commands must say what is wrong in one
// line. Real processes whose working directory really is deleted (a shell cds in, removes it, execs).

const KILL_AFTER_MS = 20_000;

let worlds: DeliveryWorld[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.remove();
});
function open(fixture: DeliveryFixture): DeliveryWorld {
  const w = createDeliveryWorld(fixture);
  worlds.push(w);
  return w;
}

/** Run the bundled bin with a working directory that is removed just before node starts. */
function runInDeletedDirectory(gone: string, args: readonly string[], env: Readonly<Record<string, string>>, stdin = ''): Promise<HookProcessResult> {
  mkdirSync(gone, { recursive: true });
  return runHookBundle({ args, env, stdin, cwd: gone, removeCwdAtStart: true, killAfterMs: KILL_AFTER_MS });
}

describe('the hook in a deleted working directory', () => {
  for (const fixture of DELIVERY_FIXTURES) {
    it(`${fixture.agent}: the payload names the repository: the checkpoint is delivered as from a live directory`, async () => {
      const reference = open(fixture);
      const expected = expectAgentContract(fixture.agent, await runScenario(reference.scenario('actionable')));
      expect(expected).not.toBeNull();

      const w = open(fixture);
      const scenario = w.scenario('actionable');
      const result = await runInDeletedDirectory(join(w.root, 'removed-worktree'), [scenario.agent], scenario.env, payloadFor(scenario));
      const reason = expectAgentContract(fixture.agent, result);
      expect(reason).toBe(expected!.replaceAll(reference.root, w.root));
    });
  }

  it('the payload names no usable cwd (relative, missing, a file) and the process directory is gone: one line, the stop passes', async () => {
    const w = open(CLAUDE_FIXTURE);
    const scenario = w.scenario('actionable');
    for (const cwd of ['relative/dir', join(w.root, 'missing'), scenario.transcriptPath]) {
      const result = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['claude'], scenario.env, payloadFor(scenario, { cwd }));
      expect(expectAgentContract('claude', result)).toBeNull();
      expect(result.stderr).toContain(`the payload cwd ${JSON.stringify(cwd)}`);
      expect(result.stderr).toContain('the hook process directory no longer exists');
    }
  });

  it('SessionStart and PreCompact hooks too: no internal error, nothing printed', async () => {
    const w = open(CLAUDE_FIXTURE);
    const scenario = w.scenario('actionable');
    for (const [command, event] of [
      ['session-start', 'SessionStart'],
      ['pre-compact', 'PreCompact'],
    ] as const) {
      const payload = JSON.stringify({ session_id: scenario.sessionId, transcript_path: scenario.transcriptPath, cwd: scenario.cwd, hook_event_name: event, source: 'startup', trigger: 'auto' });
      const result = await runInDeletedDirectory(join(w.root, 'removed-worktree'), [command, 'claude', '--debug'], scenario.env, payload);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });
});

describe('the Claude Code status line in a deleted working directory', () => {
  it('uses the input cwd: the levels, no error line', async () => {
    const w = open(CLAUDE_FIXTURE);
    const scenario = w.scenario('actionable');
    const input = JSON.stringify({ session_id: scenario.sessionId, cwd: scenario.cwd, workspace: { current_dir: scenario.cwd }, context_window: { context_window_size: 200_000, current_usage: { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 1000, cache_read_input_tokens: 170_990 } } });
    const result = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['statusline'], scenario.env, input);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^\[CTX: \S+ 86% L2\] \[CKPT: [^\]]+\]\n$/);
  });
});

describe('set-up commands in a deleted working directory: one clear line, exit 1', () => {
  for (const args of [['doctor'], ['explain', '--agent', 'claude'], ['install', '--agent', 'claude'], ['uninstall', '--agent', 'claude']]) {
    it(args.join(' '), async () => {
      const w = open(CLAUDE_FIXTURE);
      const result = await runInDeletedDirectory(join(w.root, 'removed-worktree'), args, w.scenario('actionable').env);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      const lines = result.stderr.split('\n').filter((l) => l !== '');
      expect(lines, result.stderr).toEqual([`agent-checkpoint: ${args[0]}: the current directory no longer exists (a removed worktree?); cd into an existing directory, or pass --cwd <absolute directory>`]);
    });
  }

  it('doctor --cwd <the repository> works from a deleted directory; a --cwd that does not exist is one line', async () => {
    const w = open(CLAUDE_FIXTURE);
    const scenario = w.scenario('actionable');
    const ok = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['doctor', '--cwd', scenario.cwd], scenario.env);
    expect(ok.signal).toBeNull();
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain(`git repository ${realpathSync(scenario.cwd)}`);

    const missing = join(w.root, 'no-such-dir');
    const bad = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['doctor', '--cwd', missing], scenario.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`agent-checkpoint: doctor: --cwd ${missing} does not exist\n`);
  });
});

describe('resume-prompt and state in a deleted working directory: one clear line', () => {
  it('resume-prompt (exit 0, like the hooks); with --cwd <the repository> it works from there', async () => {
    const w = open(CLAUDE_FIXTURE);
    const scenario = w.scenario('actionable');
    const gone = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['resume-prompt'], scenario.env);
    expect(gone.signal).toBeNull();
    expect(gone.code).toBe(0);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toBe('agent-checkpoint: resume-prompt: the current directory no longer exists (a removed worktree?); cd into an existing directory, or pass --cwd <absolute directory>\n');

    const relative = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['resume-prompt', '--cwd', 'sub'], scenario.env);
    expect(relative.stderr).toBe('agent-checkpoint: resume-prompt: --cwd sub is relative, and the current directory no longer exists (a removed worktree?); pass an absolute directory\n');

    const ok = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['resume-prompt', '--cwd', scenario.cwd], scenario.env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('');
    expect(ok.stderr).toMatch(/^agent-checkpoint: no handoff of ours younger than 24 h in \S+\n$/);
  });

  it('state (exit 1, failed); with --cwd <the repository> it works from there', async () => {
    const w = open(CLAUDE_FIXTURE);
    const scenario = w.scenario('actionable');
    const gone = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['state', 'load', '--command', 'build'], scenario.env);
    expect(gone.signal).toBeNull();
    expect(gone.code).toBe(1);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toBe('agent-checkpoint: state: the current directory no longer exists (a removed worktree?); cd into an existing directory, or pass --cwd <absolute directory>\n');

    const missing = join(w.root, 'no-such-dir');
    const bad = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['state', 'load', '--command', 'build', '--cwd', missing], scenario.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`agent-checkpoint: state: --cwd ${missing} does not exist\n`);

    const ok = await runInDeletedDirectory(join(w.root, 'removed-worktree'), ['state', 'load', '--command', 'build', '--cwd', scenario.cwd], scenario.env);
    expect(ok.code, ok.stderr).toBe(3); // no checkpoint yet
    expect(ok.stdout).toBe('null\n');
  });
});
