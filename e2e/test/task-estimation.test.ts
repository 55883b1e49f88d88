import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../src/harness/agent-session.ts';
import type { ProcessResult } from '../src/harness/process-group.ts';
import { HOOK_BUNDLE, assertBundlesBuilt } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { isolatedGitEnv } from '../src/harness/temp-workspace.ts';
import { waitFor } from '../src/harness/wait-for.ts';
import { shellQuote } from '../src/mock/native-tool-calls.ts';
import { say, shell, tools, withInputTokens, type Scenario } from '../src/mock/scenario.ts';
import { ClaudeSession } from '../src/run-claude.ts';
import { CopilotSession } from '../src/run-copilot.ts';
import { GeminiSession } from '../src/run-gemini.ts';
import { QwenSession } from '../src/run-qwen.ts';

/**
 * Seed 004's acceptance scenarios "Task Estimation Warning" and "Shard Suggestion" with the real
 * Claude Code and Gemini CLI: the mock reports 100k tokens in the context (50 % of the configured 200k window), the
 * `prompt-submit` hook runs as Claude's UserPromptSubmit / Gemini's BeforeAgent hook, and a large task over a plan of ~70 %
 * reaches the model with the warning and a 3-shard breakdown; then `shard` writes the shard files.
 */

const PLAN = ['# Plan: split the billing service', '', '## Tasks', ...Array.from({ length: 10 }, (_, i) => `- [ ] Move part ${i + 1} into \`src/billing/part-${i + 1}.ts\``), ''].join('\n');
const FILES = {
  'PLAN.md': PLAN,
  '.agent-checkpoint.json': `${JSON.stringify({ context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } }, null, 2)}\n`,
};
const SCENARIO: Scenario = { name: 'task-estimation', contextTokens: 100_000, steps: [say('First answer.'), say('I will propose shards first.')] };
const LARGE_TASK = 'Work through PLAN.md: refactor every billing module and migrate all callers.';

type PromptingSession = AgentSession & { prompt(text: string): Promise<ProcessResult> };

/** Our prompt hook in the agent's user-level settings (Claude: UserPromptSubmit; Gemini: BeforeAgent). */
function installPromptHook(session: AgentSession): void {
  const dir = session.agent === 'gemini' ? '.gemini' : '.claude';
  const settings = path.join(session.workspace.home, dir, 'settings.json');
  const current = existsSync(settings) ? (JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>) : {};
  mkdirSync(path.dirname(settings), { recursive: true });
  const command = `node ${shellQuote(HOOK_BUNDLE)} prompt-submit ${session.agent}`;
  const hooks =
    session.agent === 'gemini'
      ? { ...(current['hooks'] as Record<string, unknown> | undefined), BeforeAgent: [{ matcher: '*', hooks: [{ name: 'agent-checkpoint-prompt-submit', type: 'command', command, timeout: 30000 }] }] }
      : { UserPromptSubmit: [{ hooks: [{ type: 'command', command, timeout: 30 }] }] };
  writeFileSync(settings, `${JSON.stringify({ ...current, hooks }, null, 2)}\n`);
}

const AGENTS = [
  ['claude', (): Promise<AgentSession> => ClaudeSession.start({ scenario: SCENARIO, files: FILES, hook: { kind: 'none' } })],
  ['gemini', (): Promise<AgentSession> => GeminiSession.start({ scenario: SCENARIO, files: FILES, hook: { kind: 'none' } })],
] as const;

describe.skipIf(SKIP_REAL_CLIS)('seed 004: task estimation warning and shard suggestion', () => {
  it.each(AGENTS)('%s', async (_agent, start) => {
    assertBundlesBuilt();
    await withCheckedSession(start(), async (session) => {
      installPromptHook(session);

      // Gemini: both runs in one minute, so the resume hits what users of quick `-p` loops hit (see below).
      if (session.agent === 'gemini') await waitFor(() => new Date().getUTCSeconds() < 40, { timeoutMs: 25_000, intervalMs: 250, what: 'a minute with 20 s left' });
      // Turn 1 fills the context to ~50 % (the mock's usage).
      const first = await (session as PromptingSession).prompt('Hello.');
      expect(first.exitCode, first.stderr).toBe(0);
      const before = session.requests.length;

      // Turn 2: the large task. Its model request carries the warning, with the plan's shards.
      const second = await (session as PromptingSession).prompt(LARGE_TASK);
      expect(second.exitCode, second.stderr).toBe(0);
      const requests = session.requests.slice(before).filter((r) => r.answer === 'step');
      expect(requests.length).toBeGreaterThan(0);
      const body = JSON.stringify(requests[0]?.body);
      expect(body).toContain('[agent-checkpoint] This task is estimated at');
      expect(body).toContain('should be sharded before starting');
      // The hook read the session's 100k from the transcript: 35 % left before L2. For Gemini 0.61 (a
      // new `-p` process resuming the session in the minute it started) the chat file's last record at
      // BeforeAgent is the resume's rebuilt message list without tokens; the reader takes the first
      // turn's usage from before that rewrite (docs/context-checkpoints.md).
      expect(body).toMatch(/~35 % \(~70k tokens\) remain/);
      // Resumed in the minute it started: 0.61 named the resumed run's fresh file like the conversation's
      // own file, so there is one chat file (a later minute leaves a second, header-only one).
      if (session.agent === 'gemini') expect(session.transcriptPaths()).toHaveLength(1);
      expect(body).toContain('suggested 3 shards, one per session');
      expect(body).toContain('agent-checkpoint-hook shard PLAN.md');
      // Never a block: the prompt went through and was answered.
      expect(body).toContain('refactor every billing module');

      // `shard` writes the three files the warning listed.
      const shard = execFileSync(process.execPath, [HOOK_BUNDLE, 'shard', 'PLAN.md', '--json'], { cwd: session.workspace.repo, env: isolatedGitEnv(session.workspace.home), encoding: 'utf8', timeout: 30_000 });
      const out = JSON.parse(shard) as { dir: string; written: string[] };
      expect(out.written).toHaveLength(3);
      expect(readdirSync(path.join(session.workspace.repo, out.dir)).filter((f) => f.endsWith('.md'))).toHaveLength(3);
    });
  });
});

/** How often `needle` occurs in `haystack`. */
function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

const WARNING = '[agent-checkpoint] This task is estimated at';

/**
 * Qwen Code 0.24.4 fires UserPromptSubmit before every model request of a turn: after a tool call (with
 * an empty prompt) and after a Stop hook's block (with the block reason as the prompt). Another tool's
 * Stop hook whose reason reads like a large task must not get a second estimate: only the prompt the
 * user submitted is estimated.
 */
describe.skipIf(SKIP_REAL_CLIS)('qwen: one task estimate per user prompt, not per model request', () => {
  // Every reply reports 100k tokens in the context (chat completions carry usage per reply).
  const scenario: Scenario = {
    name: 'task-estimation-qwen',
    steps: [
      withInputTokens(say('First answer.'), 100_000),
      withInputTokens(tools(shell('echo step one')), 100_000),
      withInputTokens(say('I will propose shards first.'), 101_000),
      withInputTokens(say('Noted, the callers come next session.'), 102_000),
    ],
  };

  it('qwen', async () => {
    assertBundlesBuilt();
    await withCheckedSession(QwenSession.start({ scenario, files: FILES, hook: { kind: 'none' } }), async (session) => {
      // Another tool's Stop hook: it blocks once, when `block-once` exists, with a reason naming the plan's work.
      const flag = path.join(session.workspace.root, 'block-once');
      const otherStop = path.join(session.workspace.root, 'other-stop-hook.sh');
      writeFileSync(
        otherStop,
        `#!/bin/sh\ncat >/dev/null\nif [ -f ${shellQuote(flag)} ]; then rm -f ${shellQuote(flag)}; printf '%s' '{"decision":"block","reason":"Before you stop: also work through PLAN.md and migrate all callers."}'; fi\n`,
        { mode: 0o755 },
      );
      // What `install --agent qwen --with-context` writes for the prompt hook (project settings), beside the other Stop hook.
      const prompt = `node ${shellQuote(HOOK_BUNDLE)} prompt-submit qwen`;
      const settings = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: prompt, timeout: 30 }] }], Stop: [{ hooks: [{ type: 'command', command: otherStop, timeout: 30 }] }] } };
      mkdirSync(path.join(session.workspace.repo, '.qwen'), { recursive: true });
      writeFileSync(path.join(session.workspace.repo, '.qwen', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);

      const first = await session.prompt('Hello.');
      expect(first.exitCode, first.stderr).toBe(0);
      const before = session.requests.length;
      writeFileSync(flag, '');
      const second = await session.prompt(LARGE_TASK);
      expect(second.exitCode, second.stderr).toBe(0);
      const bodies = session.requests.slice(before).filter((r) => r.answer === 'step').map((r) => JSON.stringify(r.body));
      // The prompt's request, the one after the tool call, the one after the other hook's block.
      expect(bodies).toHaveLength(3);
      expect(bodies[2]).toContain('also work through PLAN.md');
      // The user's prompt got the estimate (from the 100k the chat file recorded), with the plan's shards.
      expect(count(bodies[0] ?? '', WARNING)).toBe(1);
      expect(bodies[0]).toMatch(/~35 % \(~70k tokens\) remain/);
      expect(bodies[0]).toContain('suggested 3 shards, one per session');
      // Qwen keeps it in the turn's history; no later request of the turn gets a second one.
      expect(bodies.map((body) => count(body, WARNING))).toEqual([1, 1, 1]);
    });
  });
});

/**
 * Copilot CLI 1.0.102's userPromptSubmitted names no transcript: the hook reads the usage from the
 * session log it derives from `sessionId` (`~/.copilot/session-state/<id>/events.jsonl`), and answers
 * with a top-level `additionalContext`, which Copilot puts after the prompt in `<system_reminder>`.
 */
describe.skipIf(SKIP_REAL_CLIS)('copilot: the task estimate from the session log', () => {
  const scenario: Scenario = { name: 'task-estimation-copilot', steps: [withInputTokens(say('First answer.'), 100_000), withInputTokens(say('I will propose shards first.'), 100_000)] };

  it('copilot', async () => {
    assertBundlesBuilt();
    await withCheckedSession(CopilotSession.start({ scenario, files: FILES, hook: { kind: 'none' } }), async (session) => {
      // The entry `install --agent copilot --with-context` writes (user settings, group form).
      const command = `node ${shellQuote(HOOK_BUNDLE)} prompt-submit copilot`;
      writeFileSync(path.join(session.workspace.home, '.copilot', 'settings.json'), `${JSON.stringify({ hooks: { userPromptSubmitted: [{ hooks: [{ type: 'command', command, timeout: 30 }] }] } }, null, 2)}\n`);
      const first = await session.prompt('Hello.');
      expect(first.exitCode, first.stderr).toBe(0);
      const before = session.requests.length;
      const second = await session.prompt(LARGE_TASK);
      expect(second.exitCode, second.stderr).toBe(0);
      const bodies = session.requests.slice(before).filter((r) => r.answer === 'step').map((r) => JSON.stringify(r.body));
      expect(bodies).toHaveLength(1);
      expect(count(bodies[0] ?? '', WARNING)).toBe(1);
      // Inside the prompt's system reminder, with the 100k the log recorded for the first turn: 35 % left.
      expect(bodies[0]).toMatch(/refactor every billing module and migrate all callers\.\\n\\n<system_reminder>\\n\[agent-checkpoint\] This task is estimated at/);
      expect(bodies[0]).toMatch(/~35 % \(~70k tokens\) remain/);
      expect(bodies[0]).toContain('suggested 3 shards, one per session');
    });
  });
});
