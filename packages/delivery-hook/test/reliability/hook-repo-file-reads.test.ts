import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../../src/test-support/hook-sandbox.ts';
import { runHookBundle } from '../../src/test-support/run-hook-bundle.ts';

// Issue 23, class "the monitor wedges the agent": every read of a repository file on a context hook's
// path (the monitor after each tool call, prompt-submit, session-start, pre-compact, the status line)
// is the turn end's read: non-blocking, regular files only, size-capped. A FIFO nobody writes to at
// `.agent-checkpoint.json` used to hang the monitor (and so the agent's tool loop) until killed; a
// link to /dev/zero read without end. Each run is the real bin with a hard deadline.

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

/** Well under the hooks' own deadlines' sum: a run that waits on the file is killed here and fails. */
const KILL_AFTER_MS = 15_000;

type Hostile = 'fifo' | 'dev-zero-link';
const HOSTILE: readonly Hostile[] = ['fifo', 'dev-zero-link'];

function plant(path: string, kind: Hostile): void {
  switch (kind) {
    case 'fifo':
      execFileSync('mkfifo', [path]);
      return;
    case 'dev-zero-link':
      symlinkSync('/dev/zero', path);
      return;
  }
}

function repoWith(kind: Hostile): { sb: HookSandbox; repo: string; transcript: string } {
  sandbox = createHookSandbox('ac-repo-reads-');
  const repo = join(sandbox.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sandbox.env });
  const transcript = join(sandbox.root, 't.jsonl');
  writeFileSync(transcript, '');
  plant(join(repo, '.agent-checkpoint.json'), kind);
  return { sb: sandbox, repo, transcript };
}

type Mode = 'post-tool' | 'session-start' | 'pre-compact' | 'prompt-submit' | 'statusline';
const MODES: readonly Mode[] = ['post-tool', 'session-start', 'pre-compact', 'prompt-submit', 'statusline'];

function payload(mode: Mode, repo: string, transcript: string): string {
  const base = { session_id: 's-1', transcript_path: transcript, cwd: repo };
  switch (mode) {
    case 'post-tool':
      return JSON.stringify({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' });
    case 'session-start':
      return JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' });
    case 'pre-compact':
      return JSON.stringify({ ...base, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null });
    case 'prompt-submit':
      return JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit', prompt: 'go on' });
    case 'statusline':
      return JSON.stringify({ ...base, model: { id: 'claude-opus-5-5', display_name: 'Opus' }, workspace: { current_dir: repo, project_dir: repo } });
  }
}

describe('context hooks read repository files without blocking', () => {
  for (const mode of MODES) {
    it.each(HOSTILE)(`${mode}: .agent-checkpoint.json as a %s — exits 0 promptly`, { timeout: 30_000 }, async (kind) => {
      const { sb, repo, transcript } = repoWith(kind);
      const args = mode === 'statusline' ? ['statusline'] : [mode, 'claude'];
      const result = await runHookBundle({ args, stdin: payload(mode, repo, transcript), env: sb.env, cwd: repo, killAfterMs: KILL_AFTER_MS });
      expect(result.signal, `hung on the ${kind} (killed after ${KILL_AFTER_MS} ms); stderr: ${result.stderr}`).toBeNull();
      expect(result.code, result.stderr).toBe(0);
      // One prefixed line at most (the monitor names the file it did not probe), never a stack trace.
      const lines = result.stderr.split('\n').filter((line) => line !== '');
      expect(lines.length, result.stderr).toBeLessThanOrEqual(1);
      for (const line of lines) expect(line).toMatch(/^agent-checkpoint(-hook)?: [^\n]*\.agent-checkpoint\.json/);
    });
  }
});

/** The other repository files the context hooks read, with context checkpoints and handoffs on. */
const OTHER_SITES = ['CLAUDE.md', 'AGENTS.md', 'PLAN.md', '.agent-checkpoint/handoffs/2026-01-07-1145.md', '.agent-checkpoint/loop-state.json', '.agent-checkpoint/direct-checkpoint.json'];

describe('context hooks with every other repository file they read hostile', () => {
  for (const mode of MODES) {
    it.each(HOSTILE)(`${mode}: memory, plan, handoff, loop and direct-state files as a %s — exits 0 promptly`, { timeout: 30_000 }, async (kind) => {
      sandbox = createHookSandbox('ac-repo-reads-');
      const repo = join(sandbox.root, 'repo');
      mkdirSync(join(repo, '.agent-checkpoint', 'handoffs'), { recursive: true });
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sandbox.env });
      writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify({ context: { enabled: true }, handoff: { enabled: true, planFile: 'PLAN.md' } }));
      for (const site of OTHER_SITES) plant(join(repo, site), kind);
      const transcript = join(sandbox.root, 't.jsonl');
      writeFileSync(transcript, '');
      const args = mode === 'statusline' ? ['statusline'] : [mode, 'claude'];
      const result = await runHookBundle({ args, stdin: payload(mode, repo, transcript), env: sandbox.env, cwd: repo, killAfterMs: KILL_AFTER_MS });
      expect(result.signal, `hung (killed after ${KILL_AFTER_MS} ms); stderr: ${result.stderr}`).toBeNull();
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
    });
  }
});

