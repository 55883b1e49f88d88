import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { buildStopPayload } from '../test-support/build-stop-payload.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// Issue 23, "text reaches places unsanitised": a plan file is a repository file, and a transcript is
// as untrusted. The context commands run as real processes (the built bin) on a real repository;
// nothing they print or write may carry a raw control character, and an absurd token count is no
// reading at all (never `1e+297 %` and an emergency).

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

/** Every character a terminal or a reader could be steered by: C0 but LF/TAB, DEL, C1, separators, bidi. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const HOSTILE_ITEMS = ['Rename the \x1b]0;pwned\x07 window title', 'Colour it \x9b31m red', 'Reverse \u202egnp.exe the text', 'Clear \x1b[2J the screen', 'Move \u2066isolated\u2069 and \x7f DEL'];
const PLAN = ['# Plan', '', ...HOSTILE_ITEMS.map((item) => `- [ ] ${item}, then refactor the whole billing module across src/billing/*.ts`)].join('\n');

interface Usage {
  readonly input_tokens: number | string;
  readonly cache_read_input_tokens: number;
}

/** A repository with context checkpoints on, the hostile plan, and a Claude session whose newest record has `last` usage. */
function project(last: Usage): { repo: string; run: (...args: string[]) => ReturnType<typeof runHookBundle>; transcript: string; sb: HookSandbox } {
  const sb = createHookSandbox('ac-output-safety-');
  sandbox = sb;
  const repo = join(sb.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sb.env });
  writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify({ context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } }));
  writeFileSync(join(repo, 'PLAN.md'), PLAN);
  const dir = join(sb.home, '.claude', 'projects', repo.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const usages: Usage[] = [{ input_tokens: 100, cache_read_input_tokens: 20_000 }, { input_tokens: 100, cache_read_input_tokens: 25_000 }, last];
  const entries = usages.map((usage, i) => ({
    type: 'assistant',
    uuid: `a${i}`,
    sessionId: 'sess-1',
    cwd: repo,
    timestamp: `2026-01-07T11:0${i}:00.000Z`,
    message: { id: `msg_${i}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }], usage: { ...usage, cache_creation_input_tokens: 0, output_tokens: 10 } },
  }));
  // `1e300` as JSON text: JSON.stringify would write the same number, spelled out.
  const transcript = join(dir, 'sess-1.jsonl');
  writeFileSync(transcript, `${entries.map((e) => JSON.stringify(e).replace('"__1e300__"', '1e300')).join('\n')}\n`);
  return { sb, repo, transcript, run: (...args) => runHookBundle({ args, env: sb.env, cwd: repo }) };
}

const NORMAL: Usage = { input_tokens: 100, cache_read_input_tokens: 30_000 };

describe('plan items with ESC/OSC/C1/bidi characters (a repository file)', () => {
  it.each([
    ['shard PLAN.md --dry-run', ['shard', 'PLAN.md', '--dry-run']],
    ['shard PLAN.md --dry-run --json', ['shard', 'PLAN.md', '--dry-run', '--json']],
  ])('%s prints no raw control character, and shows each escaped', async (_name, args) => {
    const { run } = project(NORMAL);
    const result = await run(...args);
    expect(result.code, result.stderr).toBe(0);
    expect(RAW_CONTROL.test(result.stdout), JSON.stringify(result.stdout)).toBe(false);
    expect(RAW_CONTROL.test(result.stderr), JSON.stringify(result.stderr)).toBe(false);
    expect(result.stdout).toMatch(/\\x1b|\\u001b/);
  });

  it('shard writes shard files whose titles and items carry every control character as a visible escape', async () => {
    const { run, repo } = project(NORMAL);
    const result = await run('shard', 'PLAN.md');
    expect(result.code, result.stderr).toBe(0);
    expect(RAW_CONTROL.test(result.stdout), JSON.stringify(result.stdout)).toBe(false);
    const dir = join(repo, '.agent-checkpoint', 'shards');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(0);
    const text = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    expect(RAW_CONTROL.test(text), JSON.stringify(text)).toBe(false);
    for (const escaped of ['\\x1b]0;pwned\\x07', '\\x9b31m', '\\u202e', '\\u2066', '\\x7f']) expect(text).toContain(escaped);
  });
});

describe('absurd token counts in a transcript are no reading (a share is 0–100 %)', () => {
  it('checkpoint --status: 1e300 input tokens is unknown with the reason, never 1e+297 % or L3', async () => {
    const { run } = project({ input_tokens: '__1e300__', cache_read_input_tokens: 30_000 });
    const text = await run('checkpoint', '--status');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Context: unknown \(.*not a plausible count/);
    expect(text.stdout).not.toMatch(/e\+297|\d %|L3|emergency/);
    const json = await run('checkpoint', '--status', '--json');
    const parsed = JSON.parse(json.stdout) as { reading?: unknown; recommendation: string };
    expect(parsed.reading).toBeUndefined();
    expect(parsed.recommendation).toContain('not a plausible count');
  });

  it('estimate against a session with 1e300 tokens counts the window as fresh, not as overfull', async () => {
    const { run } = project({ input_tokens: '__1e300__', cache_read_input_tokens: 30_000 });
    const json = await run('estimate', 'Fix the typo in the README', '--json');
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as { used: number; estimate: { remainingPercent: number } };
    expect(out.used).toBe(0);
    expect(Number.isFinite(out.estimate.remainingPercent)).toBe(true);
  });

  it('the monitor (post-tool, the real bin): 1e300 tokens is no action and one stderr line, where it was an L3 emergency', async () => {
    const { sb, repo, transcript } = project({ input_tokens: '__1e300__', cache_read_input_tokens: 30_000 });
    const payload = JSON.stringify({ session_id: 'sess-1', transcript_path: transcript, cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' });
    const result = await runHookBundle({ args: ['post-tool', 'claude'], stdin: payload, env: sb.env, cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('not a plausible count');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(repo)).not.toContain('.agent-checkpoint');
  });

  it('the monitor: its stderr line quotes an unusable cwd with ESC/C1/bidi in it escaped, on one line', async () => {
    const { sb, repo, transcript } = project(NORMAL);
    // The payload's cwd is gone and so is the process's (a removed worktree): the one line names the payload's.
    const cwd = join(repo, 'gone \x1b]0;pwned\x07 \x9b31m \u202e');
    const dead = join(sb.root, 'dead');
    mkdirSync(dead);
    const payload = JSON.stringify({ session_id: 'sess-1', transcript_path: transcript, cwd, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' });
    const result = await runHookBundle({ args: ['post-tool', 'claude'], stdin: payload, env: sb.env, cwd: dead, removeCwdAtStart: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('gone ');
    expect(RAW_CONTROL.test(result.stderr), JSON.stringify(result.stderr)).toBe(false);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('the turn end (the real Stop hook): 1e300 tokens is no level and no handoff, with the reason', async () => {
    const { sb, repo, transcript } = project({ input_tokens: '__1e300__', cache_read_input_tokens: 30_000 });
    const payload = buildStopPayload({ agent: 'claude', sessionId: 'sess-1', transcriptPath: transcript, cwd: repo, hint: {}, stopHookActive: false });
    const result = await runHookBundle({ args: ['claude', '--debug'], stdin: JSON.stringify(payload), env: sb.env, cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/L3|handoff|e\+297/i);
    expect(readdirSync(repo)).not.toContain('.agent-checkpoint');
    expect(result.stderr).toContain('not a plausible count');
  });

  it('statusline: Claude JSON with 1e300 tokens shows n/a, not a full bar at 1e+297 %', async () => {
    const { sb, repo } = project(NORMAL);
    const input = JSON.stringify({ session_id: 'sess-1', cwd: repo, model: { id: 'claude-sonnet-4-5' }, context_window: { context_window_size: 200_000, current_usage: { input_tokens: 1e300, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } });
    const result = await runHookBundle({ args: ['statusline'], stdin: input, env: sb.env, cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\[CTX: n\/a\]/);
  });
});
