import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordWrittenHandoff } from '@agent-checkpoint/context-checkpoint/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_MODE_TABLE } from './hook-modes.ts';
import { createHookSandbox, type HookSandbox } from './test-support/hook-sandbox.ts';
import { HOOK_BUNDLE, runHookBundle } from './test-support/run-hook-bundle.ts';
import { TEN_TASK_PLAN } from './test-support/context-hook-project.ts';

// Every context hook through the real built bin (issue 21): one early check, so `off --project`
// silences each of them (the PreCompact hook read the switches without the project root and wrote
// its handoff anyway), and one table of modes, so a broken install lets every mode pass with exit 0
// (the launcher's own list lacked the status line, which then exited 1).

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

const SESSION = 's-1';
const HANDOFF_DIR = ['.agent-checkpoint', 'handoffs'] as const;
const HANDOFF = `---
session_date: 2026-01-07
session_time: "11:45"
agent: claude
branch: main
checkpoint_trigger: L2 (context at 86%)
modified_files:
  - src/app.ts
---

# Session Handoff: Implement the OAuth callback

## Next Steps

1. Finish the token exchange.
`;
/** Ten open items of ~13k tokens each: far over what is left of the window at 80 %. */
const PLAN = TEN_TASK_PLAN;
const LARGE_PROMPT = 'Work through PLAN.md: refactor every billing module and migrate all callers.';

interface Project {
  readonly sb: HookSandbox;
  readonly repo: string;
  readonly transcript: string;
}

/**
 * A repository with context checkpoints and handoffs on, one fresh handoff of this installation's
 * waiting for the next session, and a Claude session at 80 % of a 200k window (L1).
 */
function project(): Project {
  sandbox = createHookSandbox('ac-context-hooks-');
  const sb = sandbox;
  const repo = join(sb.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sb.env });
  writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify({ context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } }));
  writeFileSync(join(repo, 'PLAN.md'), PLAN);
  mkdirSync(join(repo, ...HANDOFF_DIR), { recursive: true });
  writeFileSync(join(repo, ...HANDOFF_DIR, '2026-01-07-1145.md'), HANDOFF);
  recordWrittenHandoff(sb.stateDir, join(realpathSync(repo), ...HANDOFF_DIR, '2026-01-07-1145.md'), HANDOFF, new Date());
  const transcript = join(sb.root, 'session.jsonl');
  const entries = [
    { type: 'user', uuid: 'u1', sessionId: SESSION, timestamp: '2026-01-07T11:00:00.000Z', message: { role: 'user', content: 'earlier work' } },
    {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      sessionId: SESSION,
      timestamp: '2026-01-07T11:00:05.000Z',
      message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 1_000, cache_read_input_tokens: 159_000, cache_creation_input_tokens: 0, output_tokens: 50 } },
    },
  ];
  writeFileSync(transcript, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
  return { sb, repo, transcript };
}

/** The Claude payload of each context hook mode (the status line's JSON for `statusline`). */
function payloadOf(mode: string, p: Project): string {
  const common = { session_id: SESSION, transcript_path: p.transcript, cwd: p.repo };
  switch (mode) {
    case 'session-start':
      return JSON.stringify({ ...common, hook_event_name: 'SessionStart', source: 'startup' });
    case 'pre-compact':
      return JSON.stringify({ ...common, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' });
    case 'prompt-submit':
      return JSON.stringify({ ...common, hook_event_name: 'UserPromptSubmit', prompt: LARGE_PROMPT, prompt_id: 'p-1', permission_mode: 'default' });
    case 'post-tool':
      return JSON.stringify({ ...common, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' });
    case 'statusline':
      return JSON.stringify({ ...common, model: { id: 'claude-sonnet-4-5', display_name: 'Sonnet 4.5' }, workspace: { current_dir: p.repo, project_dir: p.repo } });
    default:
      // A turn-end mode: the Stop payload (with the escape hatch, so a working bin also answers fast).
      return JSON.stringify({ ...common, hook_event_name: 'Stop', stop_hook_active: true });
  }
}

const CONTEXT_MODES = ['session-start', 'pre-compact', 'prompt-submit', 'post-tool', 'statusline'] as const;

function argsOf(mode: string): string[] {
  return HOOK_MODE_TABLE.find((entry) => entry.name === mode)?.takesAgent === true ? [mode, 'claude'] : [mode];
}

function handoffsIn(repo: string): string[] {
  return readdirSync(join(repo, ...HANDOFF_DIR)).filter((f) => f.endsWith('.md')).sort();
}

/** Each context hook acts in a fresh project: the baseline the off switch is checked against. */
async function expectEachHookActs(): Promise<void> {
  const p = project();
  const run = (mode: string) => runHookBundle({ args: argsOf(mode), stdin: payloadOf(mode, p), env: p.sb.env, cwd: p.repo });
  expect((await run('statusline')).stdout).toMatch(/^\[CTX: \S+ 80% L1\] \[CKPT: ready\]/);
  const session = await run('session-start');
  expect(session.code).toBe(0);
  expect(session.stdout).toContain('Implement the OAuth callback');
  expect((await run('prompt-submit')).stdout).toContain('additionalContext');
  expect((await run('post-tool')).stdout).toMatch(/Context at 80%/);
  const before = handoffsIn(p.repo).length;
  expect((await run('pre-compact')).code).toBe(0);
  expect(handoffsIn(p.repo)).toHaveLength(before + 1);
}

describe('the context hooks through the built bin', () => {
  it('`off --project` silences every context hook that acts without it: nothing on stdout, no handoff, the status line says off', async () => {
    await expectEachHookActs();
    sandbox?.remove();
    const p = project();
    const off = await runHookBundle({ args: ['off', '--project', '--cwd', p.repo], env: p.sb.env, cwd: p.sb.root });
    expect(off.code, off.stderr).toBe(0);
    const before = handoffsIn(p.repo);
    for (const mode of CONTEXT_MODES) {
      const result = await runHookBundle({ args: argsOf(mode), stdin: payloadOf(mode, p), env: p.sb.env, cwd: p.repo });
      expect(result.code, mode).toBe(0);
      expect(result.stderr, mode).toBe('');
      if (mode === 'statusline') expect(result.stdout, mode).toMatch(/\[CKPT: off\]/);
      else expect(result.stdout, mode).toBe('');
    }
    expect(handoffsIn(p.repo)).toEqual(before);
    // Nothing was estimated, claimed or marked either.
    expect(existsSync(join(p.sb.stateDir, 'estimates'))).toBe(false);
    expect(existsSync(join(p.sb.stateDir, 'monitor'))).toBe(false);
  });
});

describe('one process harness for every hook mode', () => {
  it('the status line has the hooks\' deadline: past it, the n/a line, one stderr line, exit 0', async () => {
    const p = project();
    // Claude never closes stdin here; the hooks' deadline (100 ms) comes before the status line's stdin wait.
    const result = await runHookBundle({ args: ['statusline'], stdin: { keepOpen: '' }, env: { ...p.sb.env, AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '100' }, cwd: p.repo, killAfterMs: 15_000 });
    expect(result).toMatchObject({ code: 0, signal: null, stdout: '[CTX: n/a] [CKPT: n/a]\n' });
    expect(result.stderr).toBe('agent-checkpoint: statusline: deadline of 100 ms reached; doing nothing\n');
  });
});

describe('a broken install (the main bundle gone)', () => {
  it('every hook mode of the table exits 0 with empty stdout and one stderr line; a command exits 1', async () => {
    const p = project();
    // The launcher alone: neither the main bundle nor the monitor's can be loaded.
    const dir = join(p.sb.root, 'broken');
    mkdirSync(dir);
    const lonely = join(dir, 'agent-checkpoint-hook.cjs');
    copyFileSync(HOOK_BUNDLE, lonely);
    for (const entry of HOOK_MODE_TABLE) {
      const result = await runHookBundle({ bin: lonely, args: argsOf(entry.name), stdin: payloadOf(entry.name, p), env: p.sb.env, cwd: p.repo });
      expect([result.code, result.stdout], entry.name).toEqual([0, '']);
      expect(result.stderr.trim().split('\n'), entry.name).toEqual([expect.stringMatching(/^agent-checkpoint-hook: cannot start .*; reinstall the package/)]);
    }
    expect((await runHookBundle({ bin: lonely, args: ['doctor'], env: p.sb.env, cwd: p.repo })).code).toBe(1);
  });
});
