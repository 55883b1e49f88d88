import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../src/harness/agent-session.ts';
import type { ProcessResult } from '../src/harness/process-group.ts';
import { HOOK_BUNDLE, assertBundlesBuilt } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { shellQuote } from '../src/mock/native-tool-calls.ts';
import { say, shell, tools, withInputTokens, type Scenario } from '../src/mock/scenario.ts';
import { ClaudeSession } from '../src/run-claude.ts';
import { CodexSession } from '../src/run-codex.ts';
import { CodexTuiSession } from '../src/run-codex-tui.ts';
import { CopilotSession } from '../src/run-copilot.ts';
import { GeminiSession } from '../src/run-gemini.ts';

/**
 * Seed 004's acceptance scenarios "L1 Warning Alert" and "L2 Handoff Initiation" with the real Claude
 * Code, Gemini CLI and Codex CLI (L1 also with Copilot CLI's postToolUse) against the model mock: the monitor `agent-checkpoint-hook post-tool
 * <agent>` runs as Claude's and Codex's PostToolUse / Gemini's AfterTool hook (as `install
 * --with-context` adds it), and the mock's replies report a context of ~72 % / ~86 % of the configured
 * 200k window, so the hook acts during the turn, once per level.
 */

const WINDOW = 200_000;
const L1_TOKENS = 144_000; // 72 %
const L2_TOKENS = 172_000; // 86 %
const HANDOFF_DIR = 'notes/handoffs';
const FILES = {
  '.agent-checkpoint.json': `${JSON.stringify({ context: { enabled: true, windowTokens: WINDOW }, handoff: { enabled: true, dir: HANDOFF_DIR } }, null, 2)}\n`,
};
const L1_TEXT = '⚠️ Context at 72% - Consider completing current task before starting new work.';

/** Two tool calls in one turn, each reply reporting `tokens` (+1k for the second: the context grows slowly). */
function twoCalls(name: string, tokens: number): Scenario {
  return {
    name,
    steps: [
      withInputTokens(tools(shell('echo first call')), tokens),
      withInputTokens(tools(shell('echo second call')), tokens + 1_000),
      withInputTokens(say('Done.'), tokens + 2_000),
    ],
  };
}

/**
 * The monitor as PostToolUse in the user's settings (what `install --with-context` writes); for Codex in
 * `$CODEX_HOME/hooks.json` (its runner passes `--dangerously-bypass-hook-trust`, else exec skips it).
 */
function installMonitor(session: AgentSession): void {
  const command = `node ${shellQuote(HOOK_BUNDLE)} post-tool ${session.agent}`;
  if (session instanceof CodexSession) {
    const hooks = { hooks: { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] }] } };
    writeFileSync(path.join(session.codexHome, 'hooks.json'), `${JSON.stringify(hooks, null, 2)}\n`);
    return;
  }
  const settings = path.join(session.workspace.home, session.agent === 'gemini' ? '.gemini' : '.claude', 'settings.json');
  const current = existsSync(settings) ? (JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>) : {};
  mkdirSync(path.dirname(settings), { recursive: true });
  const hooks =
    session.agent === 'gemini'
      ? { ...(current['hooks'] as Record<string, unknown> | undefined), AfterTool: [{ matcher: '*', hooks: [{ name: 'agent-checkpoint-post-tool', type: 'command', command, timeout: 30000 }] }] }
      : { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] }] };
  writeFileSync(settings, `${JSON.stringify({ ...current, hooks }, null, 2)}\n`);
}

type PromptingSession = AgentSession & { prompt(text: string): Promise<ProcessResult> };

/** How often `needle` occurs in `haystack`. */
function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** The step requests' bodies, as JSON text, in order. */
function stepBodies(session: AgentSession): string[] {
  return session.requests.filter((r) => r.answer === 'step').map((r) => JSON.stringify(r.body));
}

const AGENTS = [
  ['claude', (scenario: Scenario): Promise<AgentSession> => ClaudeSession.start({ scenario, files: FILES, hook: { kind: 'none' } })],
  ['gemini', (scenario: Scenario): Promise<AgentSession> => GeminiSession.start({ scenario, files: FILES, hook: { kind: 'none' } })],
  ['codex', (scenario: Scenario): Promise<AgentSession> => CodexSession.start({ scenario, files: FILES, hook: { kind: 'none' } })],
] as const;

describe.skipIf(SKIP_REAL_CLIS)('seed 004: the monitor during the turn (real CLIs)', () => {
  it.each(AGENTS)('%s: L1 warning: after the first tool call at 72 percent, the next model request carries the L1 alert, exactly once', async (agent, start) => {
    assertBundlesBuilt();
    await withCheckedSession(start(twoCalls(`monitor-l1-${agent}`, L1_TOKENS)), async (session) => {
      installMonitor(session);
      const run = await (session as PromptingSession).prompt('Run the two checks.');
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      const bodies = stepBodies(session);
      expect(bodies).toHaveLength(3);
      // Before any tool call: nothing.
      expect(bodies[0]).not.toContain('Context at');
      // After the first call: the alert, once.
      expect(count(bodies[1] ?? '', L1_TEXT)).toBe(1);
      // After the second call (same level): not added again; the history still holds the first one.
      expect(count(bodies[2] ?? '', L1_TEXT)).toBe(1);
      expect(bodies[2]).not.toContain('Context at 73%');
      // No automatic action: no handoff written.
      expect(existsSync(path.join(session.workspace.repo, HANDOFF_DIR))).toBe(false);
    });
  });

  it.each(AGENTS)('%s: L2 handoff initiation: at 86 percent a handoff is written, the agent is asked to finish the step and hand off, the user is told', async (agent, start) => {
    assertBundlesBuilt();
    await withCheckedSession(start(twoCalls(`monitor-l2-${agent}`, L2_TOKENS)), async (session) => {
      installMonitor(session);
      // `handoff.dir` is a privileged key (a directory the hook writes to): it applies once the user trusts the file.
      execFileSync(process.execPath, [HOOK_BUNDLE, 'trust'], { cwd: session.workspace.repo, env: session.env(), encoding: 'utf8', timeout: 30_000 });
      const run = await (session as PromptingSession).prompt('Start the OAuth callback work.');
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);

      const dir = path.join(session.workspace.repo, HANDOFF_DIR);
      const handoffs = readdirSync(dir).filter((f) => f.endsWith('.md'));
      expect(handoffs).toHaveLength(1);
      const handoff = `${HANDOFF_DIR}/${handoffs[0] ?? ''}`;
      expect(readFileSync(path.join(dir, handoffs[0] ?? ''), 'utf8')).toContain('checkpoint_trigger: L2 (context at 86%)');

      const bodies = stepBodies(session);
      expect(bodies).toHaveLength(3);
      expect(bodies[0]).not.toContain('Context at');
      expect(bodies[1]).toContain('Context at 86% - Initiating checkpoint sequence.');
      expect(bodies[1]).toContain(`Handoff written to ${handoff}. Finish the current step, then stop and hand off`);
      // Once: the second call (still L2) adds nothing.
      expect(count(bodies[2] ?? '', `Handoff written to ${handoff}`)).toBe(1);

      const notice = `agent-checkpoint: context at 86% (L2); handoff written to ${handoff}.`;
      const shown = [...run.stdout.split('\n'), ...run.stderr.split('\n')].filter((line) => line.includes(notice));
      if (agent === 'claude') {
        // `claude -p --output-format stream-json --verbose` shows the systemMessage as one informational event.
        expect(shown.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
          expect.objectContaining({ type: 'system', subtype: 'informational', level: 'notice', content: `PostToolUse:Bash says: ${notice}` }),
        ]);
        expect(bodies[1]).not.toContain(notice);
      } else if (agent === 'codex') {
        // Codex 0.169 takes the systemMessage as a hook warning: the TUI shows it (test below),
        // `codex exec` (text or --json) prints it nowhere, and it never reaches the model.
        expect(shown).toEqual([]);
        expect(bodies[1]).not.toContain(notice);
      } else {
        // Gemini has no user-facing AfterTool message: the hook appends the user line to the model's
        // context (the model relays it), and `gemini -p` prints it nowhere.
        expect(shown).toEqual([]);
        expect(count(bodies[1] ?? '', notice)).toBe(1);
      }
    });
  });

  it('copilot: L1 warning: the postToolUse monitor finds the session log from the session id; the next model request carries the alert in the tool result, once', async () => {
    assertBundlesBuilt();
    // 1.0.102 compacts the history past ~128k estimated tokens (and that compaction spends a scripted
    // reply): a 100k window keeps 72 % below it.
    const files = { '.agent-checkpoint.json': `${JSON.stringify({ context: { enabled: true, windowTokens: 100_000 } }, null, 2)}\n` };
    await withCheckedSession(CopilotSession.start({ scenario: twoCalls('monitor-l1-copilot', 72_000), files, hook: { kind: 'none' } }), async (session) => {
      // The entry `install --agent copilot --with-context` writes for the monitor (user settings, group form).
      const command = `node ${shellQuote(HOOK_BUNDLE)} post-tool copilot`;
      const settings = path.join(session.workspace.home, '.copilot', 'settings.json');
      writeFileSync(settings, `${JSON.stringify({ hooks: { postToolUse: [{ hooks: [{ type: 'command', command, timeout: 30 }] }] } }, null, 2)}\n`);
      const run = await session.prompt('Run the two checks.');
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      const bodies = stepBodies(session);
      expect(bodies).toHaveLength(3);
      expect(bodies[0]).not.toContain('Context at');
      // Copilot appends a top-level additionalContext to the tool's result for the model.
      const alert = `Additional guidance from postToolUse hooks:\\n${L1_TEXT}`;
      expect(count(bodies[1] ?? '', alert)).toBe(1);
      // The second call (same level) adds nothing; the history keeps the first.
      expect(count(bodies[2] ?? '', L1_TEXT)).toBe(1);
      expect(existsSync(path.join(session.workspace.repo, HANDOFF_DIR))).toBe(false);
    });
  });

  it('codex TUI: L2 at 86 percent: the user sees the notice under the tool call, the model gets the ask as a developer message before the tool output', async () => {
    assertBundlesBuilt();
    // The project's `.codex/hooks.json` (the repo is a trusted project; the TUI runs with
    // `--dangerously-bypass-hook-trust`): present before the TUI starts, which reads hooks at startup.
    const command = `node ${shellQuote(HOOK_BUNDLE)} post-tool codex`;
    const hooks = { hooks: { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] }] } };
    const files = { ...FILES, '.codex/hooks.json': `${JSON.stringify(hooks, null, 2)}\n` };
    const scenario = { ...twoCalls('monitor-l2-codex-tui', L2_TOKENS), title: 'Monitor L2' };
    await withCheckedSession(CodexTuiSession.start({ scenario, files, hook: { kind: 'none' } }), async (session) => {
      execFileSync(process.execPath, [HOOK_BUNDLE, 'trust'], { cwd: session.workspace.repo, env: session.env(), encoding: 'utf8', timeout: 30_000 });
      await session.submit('Start the OAuth callback work.');
      await session.waitForTurnsCompleted(1);

      const handoffs = readdirSync(path.join(session.workspace.repo, HANDOFF_DIR)).filter((f) => f.endsWith('.md'));
      expect(handoffs).toHaveLength(1);
      const handoff = `${HANDOFF_DIR}/${handoffs[0] ?? ''}`;
      const notice = `agent-checkpoint: context at 86% (L2); handoff written to ${handoff}.`;
      // The TUI renders a PostToolUse systemMessage as `↳ Hook · <text>` below the tool call, once.
      expect(count(session.tmux.capture(), `Hook · ${notice}`)).toBe(1);

      const steps = session.requests.filter((r) => r.answer === 'step');
      expect(steps).toHaveLength(3);
      // additionalContext arrives as a `developer` message placed right before the tool's output.
      const input = (steps[1]?.body as { input?: Array<Record<string, unknown>> } | undefined)?.input ?? [];
      const at = input.findIndex((item) => JSON.stringify(item).includes(`Handoff written to ${handoff}. Finish the current step, then stop and hand off`));
      expect(input[at]).toMatchObject({ type: 'message', role: 'developer' });
      expect(input[at + 1]).toMatchObject({ type: 'function_call_output' });
      expect(JSON.stringify(steps[1]?.body)).not.toContain(notice);
    });
  });
});
