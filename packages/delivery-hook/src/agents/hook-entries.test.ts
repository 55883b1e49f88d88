import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_IDS, type AgentId } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuxHookContext, AuxHookResult } from '../aux-hook/run-aux-hook.ts';
import { createHookLogger } from '../debug-log.ts';
import { hookModeOf } from '../hook-modes.ts';
import type { HookEntrySpec } from '../install/hook-entry-spec.ts';
import { runPostTool } from '../post-tool/run-post-tool.ts';
import { runPreCompact } from '../pre-compact/pre-compact-adapter.ts';
import { runPromptSubmit } from '../prompt-submit/prompt-submit-adapter.ts';
import { runSessionStart } from '../session-start/session-start-adapter.ts';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { answersHookEvent, HOOK_ENTRIES, type EventHookMode } from './hook-entries.ts';
import { AGENT_PROFILES } from './profiles.ts';

// Which payload events a hook answers is what the agent's hook entries register for its mode: one
// list per agent (hook-entries.ts), read by install and by every hook, none in the adapters.

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

const MODES: readonly EventHookMode[] = ['session-start', 'pre-compact', 'prompt-submit', 'post-tool'];

/** A hook of `mode` run in-process for `agent` on a snake_case payload naming `eventName`, in a project with nothing configured. */
async function answer(mode: EventHookMode, agent: AgentId, eventName: string): Promise<AuxHookResult> {
  sandbox ??= createHookSandbox('ac-hook-entries-');
  const repo = join(sandbox.root, 'repo');
  mkdirSync(repo, { recursive: true });
  const text = JSON.stringify({ session_id: 's-1', transcript_path: join(sandbox.root, 't.jsonl'), cwd: repo, hook_event_name: eventName, prompt: 'hello', source: 'startup' });
  const now = (): Date => new Date();
  const deadlineAt = Date.now() + 5000;
  const stderr: string[] = [];
  if (mode === 'post-tool') {
    const unused = (): never => {
      throw new Error('not reached: nothing is configured');
    };
    return runPostTool(text, {
      agent,
      env: sandbox.env,
      processCwd: repo,
      stateDir: () => sandbox!.stateDir,
      userConfigFile: join(sandbox.home, '.config', 'agent-checkpoint', 'config.json'),
      now,
      deadlineAt,
      warn: (line) => stderr.push(line),
      act: unused,
      loadMonitor: unused,
      checkpointCommand: unused,
      recordAlert: unused,
      recordState: unused,
    });
  }
  const context: AuxHookContext = { agent, env: sandbox.env, processCwd: repo, stateDir: sandbox.stateDir, deadlineAt, now, log: createHookLogger({ debug: false, stateDir: undefined, agent, stderr: (line) => stderr.push(line) }) };
  const run = { 'session-start': runSessionStart, 'pre-compact': runPreCompact, 'prompt-submit': runPromptSubmit }[mode];
  return run(text, context);
}

describe("the agents' hook entries", () => {
  it.each(AGENT_IDS)('%s: the profile registers exactly the list hooks read', (agent) => {
    expect(AGENT_PROFILES[agent].hookEntries).toBe(HOOK_ENTRIES[agent]);
  });

  it('name hook modes that exist, and each event mode is one of them', () => {
    for (const mode of MODES) expect(hookModeOf(mode)?.takesAgent, mode).toBe(true);
    for (const [agent, entries] of Object.entries(HOOK_ENTRIES)) {
      for (const entry of entries) expect(hookModeOf(entry.args[0]), `${agent} ${entry.event}`).toBeDefined();
    }
  });

  it('answersHookEvent: the event and the mode of one entry, not the event alone', () => {
    const entries: HookEntrySpec[] = [
      { event: 'Stop', args: ['claude'], name: 'a', timeoutSeconds: 30 },
      { event: 'PostToolUse', args: ['post-tool', 'claude'], name: 'b', timeoutSeconds: 30, feature: 'context' },
    ];
    expect(answersHookEvent(entries, 'post-tool', 'PostToolUse')).toBe(true);
    expect(answersHookEvent(entries, 'prompt-submit', 'PostToolUse')).toBe(false);
    expect(answersHookEvent(entries, 'post-tool', 'Stop')).toBe(false);
    expect(answersHookEvent(entries, 'post-tool', 'posttooluse')).toBe(false);
  });
});

describe('each hook answers the events its agent registers for it, and only those', () => {
  // Every registered (agent, mode, event), and for each a neighbour's event of the same mode it does not register.
  const registered = AGENT_IDS.flatMap((agent) => HOOK_ENTRIES[agent].filter((entry) => MODES.some((mode) => mode === entry.args[0])).map((entry) => [agent, entry.args[0] as EventHookMode, entry.event] as const));

  it.each(registered)('%s %s: answers its own %s', async (agent, mode, event) => {
    const result = await answer(mode, agent, event);
    expect(result.code).not.toBe(`not-${mode}`);
  });

  it.each([
    // Another agent's name for the same hook: a misrouted entry, not this agent's event.
    ['claude', 'prompt-submit', 'BeforeAgent'],
    ['gemini', 'prompt-submit', 'UserPromptSubmit'],
    ['claude', 'pre-compact', 'PreCompress'],
    ['gemini', 'post-tool', 'PostToolUse'],
    ['claude', 'post-tool', 'AfterTool'],
    // Registered by Qwen Code and Copilot CLI only.
    ['claude', 'post-tool', 'PostToolUseFailure'],
    // Another hook's event of the same agent.
    ['codex', 'session-start', 'UserPromptSubmit'],
  ] as const)('%s %s: ignores %s', async (agent, mode, event) => {
    const result = await answer(mode, agent, event);
    expect(result).toMatchObject({ output: '', code: `not-${mode}`, detail: `ignoring ${event}` });
  });

  it.each(MODES)('%s: an event added to the agent\'s entries is answered, with no adapter edit', async (mode) => {
    const entries = HOOK_ENTRIES.claude as HookEntrySpec[];
    expect((await answer(mode, 'claude', 'ContextProbe')).code).toBe(`not-${mode}`);
    entries.push({ event: 'ContextProbe', args: [mode, 'claude'], name: 'probe', timeoutSeconds: 30, feature: 'context' });
    try {
      expect((await answer(mode, 'claude', 'ContextProbe')).code).not.toBe(`not-${mode}`);
    } finally {
      entries.pop();
    }
  });
});
