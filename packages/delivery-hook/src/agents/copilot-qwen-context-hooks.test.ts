import { appendFileSync, copyFileSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { recordWrittenHandoff } from '@agent-checkpoint/context-checkpoint/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { recordedContextPayload } from '../test-support/context-hook-payloads.ts';
import { LARGE_PROMPT, createContextHookProject } from '../test-support/context-hook-project.ts';
import type { HookSandbox } from '../test-support/hook-sandbox.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// The context hooks of Copilot CLI 1.0.102 and Qwen Code 0.24.4 through the real bundled bin, fed the
// payloads the real CLIs wrote (fixtures/*/context-hooks/), on real repositories and the derived
// context-level session logs (fixtures/<agent>/<version>/context-levels/: L0 30 %, L1 75 % of the window).

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

const COPILOT_SESSION = '3b4e28ba-2fa1-4d2e-883f-0016d3cca427';

function project(config: Record<string, unknown>): { sb: HookSandbox; repo: string } {
  const created = createContextHookProject('ac-ctx-copilot-qwen-', config);
  sandbox = created.sb;
  return created;
}

/** The Copilot session's log where 1.0.102 keeps it (`~/.copilot/session-state/<id>/events.jsonl`), at `level`. */
function copilotLog(sb: HookSandbox, level: 'L0' | 'L1'): string {
  const log = join(sb.home, '.copilot', 'session-state', COPILOT_SESSION, 'events.jsonl');
  mkdirSync(dirname(log), { recursive: true });
  copyFileSync(join(FIXTURES_DIR, 'copilot/1.0.102/context-levels', `${level}.jsonl`), log);
  for (const event of ['postToolUse', 'postToolUseFailure']) appendFileSync(log, hookStart(event));
  return log;
}

/**
 * The `hook.start` line 1.0.102 writes to the session log before it runs a hook (its `input` is the
 * payload): the monitor waits for the one of its own call before reading the usage.
 */
function hookStart(event: string): string {
  return `${JSON.stringify({ type: 'hook.start', data: { hookInvocationId: `inv-${event}`, hookType: event, input: recordedContextPayload('copilot', event) } })}\n`;
}

/** A recorded Copilot payload, run in `repo`. */
const copilotPayload = (event: string, repo: string): string => JSON.stringify({ ...recordedContextPayload('copilot', event), cwd: repo });

/** A recorded Qwen payload, run in `repo` on a chat file at `level`. */
function qwenPayload(sb: HookSandbox, repo: string, event: string, nth: number, run: string, level: 'L0' | 'L1'): string {
  const transcript = join(sb.root, 'qwen-chat.jsonl');
  copyFileSync(join(FIXTURES_DIR, 'qwen/0.24.4/context-levels', `${level}.jsonl`), transcript);
  return JSON.stringify({ ...recordedContextPayload('qwen', event, nth, run), cwd: repo, transcript_path: transcript });
}

async function hook(mode: string, agent: string, stdin: string, sb: HookSandbox, repo: string) {
  const result = await runHookBundle({ args: [mode, agent], stdin, env: sb.env, cwd: repo });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe('Copilot CLI context hooks', () => {
  it("postToolUse: the monitor finds the session's log from its id and alerts once, as a top-level additionalContext", async () => {
    const { sb, repo } = project({ context: { enabled: true } });
    copilotLog(sb, 'L1');
    const first = JSON.parse(await hook('post-tool', 'copilot', copilotPayload('postToolUse', repo), sb, repo)) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(['additionalContext']);
    // 75 %, growing ~30k tokens a call in this log: the next call would pass 85 %, so the monitor acts one call early.
    expect(first['additionalContext']).toMatch(/^🔶 Context at 75% - Initiating checkpoint sequence\.\n/);
    expect(first['additionalContext']).toContain('run `agent-checkpoint-hook checkpoint` to write a handoff');
    // The next call of the session (a failed file tool: postToolUseFailure) is at the same level: nothing more.
    expect(await hook('post-tool', 'copilot', copilotPayload('postToolUseFailure', repo), sb, repo)).toBe('');
  });

  it('postToolUse before the log has caught up (no hook.start of this call yet): the monitor waits for it, then reads the call\'s usage', async () => {
    const { sb, repo } = project({ context: { enabled: true } });
    const log = join(sb.home, '.copilot', 'session-state', COPILOT_SESSION, 'events.jsonl');
    mkdirSync(dirname(log), { recursive: true });
    // The log still at 30 % (L0) when the hook starts; the 75 % usage record and this call's hook.start follow.
    copyFileSync(join(FIXTURES_DIR, 'copilot/1.0.102/context-levels', 'L0.jsonl'), log);
    const running = hook('post-tool', 'copilot', copilotPayload('postToolUse', repo), sb, repo);
    await new Promise((resolve) => setTimeout(resolve, 100));
    writeFileSync(log, `${readFileSync(join(FIXTURES_DIR, 'copilot/1.0.102/context-levels', 'L1.jsonl'), 'utf8')}${hookStart('postToolUse')}`);
    const out = JSON.parse(await running) as Record<string, unknown>;
    expect(out['additionalContext']).toContain('Context at 75%');
  });

  it('postToolUseFailure is answered too (a failed file tool fires only that event)', async () => {
    const { sb, repo } = project({ context: { enabled: true } });
    copilotLog(sb, 'L1');
    const out = JSON.parse(await hook('post-tool', 'copilot', copilotPayload('postToolUseFailure', repo), sb, repo)) as Record<string, unknown>;
    expect(out['additionalContext']).toContain('Context at 75%');
  });

  it("userPromptSubmitted: the estimate reads the session's usage from its log (30 % used: 55 % left before L2)", async () => {
    const { sb, repo } = project({ context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } });
    copilotLog(sb, 'L0');
    const stdin = JSON.stringify({ ...recordedContextPayload('copilot', 'userPromptSubmitted'), cwd: repo, prompt: LARGE_PROMPT });
    const out = JSON.parse(await hook('prompt-submit', 'copilot', stdin, sb, repo)) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['additionalContext']);
    expect(out['additionalContext']).toMatch(/^\[agent-checkpoint\] This task is estimated at/);
    expect(out['additionalContext']).toMatch(/~55 % \(~110k tokens\) remain/);
  });

  it('sessionStart: the waiting handoff reaches the new session, claimed for its id', async () => {
    const { sb, repo } = project({ handoff: { enabled: true } });
    const handoff = '---\nsession_date: 2026-01-07\nagent: copilot\ncheckpoint_trigger: L2 (context at 86%)\n---\n\n# Session Handoff: split billing\n';
    const file = join(repo, '.agent-checkpoint', 'handoffs', '2026-01-07-1145.md');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, handoff);
    recordWrittenHandoff(sb.stateDir, join(realpathSync(repo), '.agent-checkpoint', 'handoffs', '2026-01-07-1145.md'), handoff, new Date());
    const out = JSON.parse(await hook('session-start', 'copilot', copilotPayload('sessionStart', repo), sb, repo)) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['additionalContext']);
    expect(out['additionalContext']).toContain('.agent-checkpoint/handoffs/2026-01-07-1145.md');
    const injected = join(repo, '.agent-checkpoint', 'injected');
    const records = readdirSync(injected).map((f) => JSON.parse(readFileSync(join(injected, f), 'utf8')) as Record<string, unknown>);
    expect(records).toEqual([expect.objectContaining({ agent: 'copilot', sessionId: COPILOT_SESSION })]);
  });
});

describe('Qwen Code context hooks', () => {
  const ON = { context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } };

  it("prompt-submit warns for the user's prompt, not for the later model requests of its turn (tool results, another hook's Stop reason)", async () => {
    const { sb, repo } = project(ON);
    const user = JSON.parse(qwenPayload(sb, repo, 'UserPromptSubmit', 0, 'stop-block', 'L1')) as Record<string, unknown>;
    const warned = JSON.parse(await hook('prompt-submit', 'qwen', JSON.stringify({ ...user, prompt: LARGE_PROMPT, submitted_prompt: LARGE_PROMPT }), sb, repo)) as {
      hookSpecificOutput: { additionalContext: string };
    };
    expect(warned.hookSpecificOutput.additionalContext).toMatch(/^\[agent-checkpoint\] This task is estimated at/);
    // The same turn's next requests: after a tool call (prompt "") and after a Stop hook's block (its reason as the prompt).
    expect(await hook('prompt-submit', 'qwen', qwenPayload(sb, repo, 'UserPromptSubmit', 1, 'stop-block', 'L1'), sb, repo)).toBe('');
    const reason = JSON.parse(qwenPayload(sb, repo, 'UserPromptSubmit', 2, 'stop-block', 'L1')) as Record<string, unknown>;
    expect(await hook('prompt-submit', 'qwen', JSON.stringify({ ...reason, prompt: `Before you stop: ${LARGE_PROMPT}` }), sb, repo)).toBe('');
  });

  it('post-tool answers PostToolUseFailure (what 0.24.4 fires after a failing command) with the L1 alert', async () => {
    const { sb, repo } = project({ context: { enabled: true } });
    const out = JSON.parse(await hook('post-tool', 'qwen', qwenPayload(sb, repo, 'PostToolUseFailure', 0, 'tool-calls', 'L1'), sb, repo)) as {
      hookSpecificOutput: { additionalContext: string };
    };
    expect(out.hookSpecificOutput.additionalContext).toContain('Context at 75%');
  });
});
