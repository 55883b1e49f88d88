import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_PREFIX, RESTART_COMMAND, TEST_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import { findDeliveredCheckpoint } from '../src/checkpoint/delivered-checkpoint.ts';
import { copyCheckout, REPO_ROOT } from '../src/harness/clone-checkout.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { ownInstallSession } from '../src/harness/own-install.ts';
import { addClaudePlugin } from '../src/harness/plugin-route-install.ts';
import { branch, patch, read, say, shell, tools, whenLastUserTextStartsWith, type Scenario } from '../src/mock/scenario.ts';
import { ClaudeSession } from '../src/run-claude.ts';

/**
 * Issue 24: the tool on the plugin route. Claude Code 2.1.330 puts an enabled plugin's `bin/` on its
 * Bash tool's PATH (its shell set-up collects `<plugin path>/bin` of each enabled plugin, dropping a
 * path with shell metacharacters): installed from a clone with the CLI's own plugin commands, the
 * plugin's `bin/agent-checkpoint-hook` answers `--version` in the agent's Bash tool, and the user's
 * `/agent-checkpoint:checkpoint-off` runs from inside the agent (`slash off`, no argument: this
 * session): the same turn then edits daemon code without `make restart`, and its stop passes
 * unchecked where it would otherwise be blocked (plugin-install.test.ts).
 */

const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages', 'delivery-hook', 'package.json'), 'utf8')) as { version: string }).version;

const DAEMON_EDIT = tools(
  patch(
    { op: 'update', path: 'calc.mjs', oldText: '  return a - b;\n', newText: '  return a + b;\n' },
    { op: 'update', path: 'daemon/server.mjs', oldText: "export const greeting = 'hello';\n", newText: "export const greeting = 'hello, world';\n" },
  ),
);

const SCRIPT: Scenario = {
  name: 'plugin-tool-off',
  steps: [
    tools(shell('agent-checkpoint-hook --version')),
    // What /agent-checkpoint:checkpoint-off asks the model to run, by the bin's name on the PATH.
    tools(shell('agent-checkpoint-hook slash off')),
    tools(shell(TEST_COMMAND)),
    tools(read('calc.mjs'), read('daemon/server.mjs')),
    tools(
      patch(
        { op: 'update', path: 'calc.mjs', oldText: '  return a - b;\n', newText: '  return a + b;\n' },
        { op: 'update', path: 'daemon/server.mjs', oldText: "export const greeting = 'hello';\n", newText: "export const greeting = 'hello, world';\n" },
      ),
    ),
    tools(shell(TEST_COMMAND)),
    // No answer for a checkpoint: had one come, the run would go past the script (a fallback).
    say('Fixed add() and the greeting.'),
  ],
};

/** The text of every tool result the model was sent, in order. */
function toolResults(session: ClaudeSession): string[] {
  const last = session.requests.filter((r) => r.answer === 'step' || r.answer === 'fallback').at(-1);
  const messages = (last?.body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
  const out: string[] = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; content?: unknown }[]) {
      if (block.type !== 'tool_result') continue;
      out.push(typeof block.content === 'string' ? block.content : JSON.stringify(block.content));
    }
  }
  return out;
}

/** A Claude session with the plugin installed from a clone-like checkout by the CLI's own commands. */
async function withPluginSession(scenario: Scenario, fn: (session: ClaudeSession) => Promise<void>): Promise<void> {
  const start = ClaudeSession.start(ownInstallSession(scenario, { debug: true }));
  await withCheckedSession(start, async (session) => {
    const checkout = path.join(session.workspace.root, 'checkout', 'agent-checkpoint');
    copyCheckout(checkout);
    await addClaudePlugin(session, path.dirname(checkout));
    await fn(session);
  });
}

describe.skipIf(SKIP_REAL_CLIS)('the plugin’s command-line tool, from inside Claude Code', () => {
  it('status in the Bash tool prints the tool by its path; the block names the plugin’s off command for a person', async () => {
    const script: Scenario = {
      name: 'plugin-tool-names',
      steps: [
        tools(shell('agent-checkpoint-hook status')),
        tools(shell(TEST_COMMAND)),
        tools(read('calc.mjs'), read('daemon/server.mjs')),
        DAEMON_EDIT,
        tools(shell(TEST_COMMAND)),
        say('Fixed add() and the greeting.'),
        branch([whenLastUserTextStartsWith(CHECKPOINT_PREFIX, say('Noted.'))], say('No checkpoint arrived.')),
      ],
    };
    await withPluginSession(script, async (session) => {
      const run = await session.prompt('The calc test fails. Fix it, and make the daemon greet the world.');
      expect(run.exitCode, run.stderr).toBe(0);
      // Claude Code 2.1.330 runs a plugin of a local-directory marketplace from that directory (the
      // clone), and puts its bin/ from there on the PATH.
      const tool = path.join(session.workspace.root, 'checkout', 'agent-checkpoint', 'plugins', 'agent-checkpoint', 'bin', 'agent-checkpoint-hook');
      expect(toolResults(session)[0]).toContain(`command-line tool: ${tool}`);
      const delivered = session.requests.flatMap((r) => {
        const found = r.answer === 'step' ? findDeliveredCheckpoint('claude-hook', r.body) : undefined;
        return found === undefined ? [] : [found.text];
      });
      expect(delivered.length).toBe(1);
      expect(delivered[0]).toContain(`(a person can run \`/agent-checkpoint:checkpoint-off --session ${session.sessionId}\`)`);
      expect(delivered[0]).not.toContain('agent-checkpoint-hook off');
    });
  }, 240_000);

  it('plugin bin/ on the Bash tool’s PATH: --version answers; `slash off` turns this session off; the stop after a daemon edit passes', async () => {
    await withPluginSession(SCRIPT, async (session) => {
      const run = await session.prompt('/agent-checkpoint:checkpoint-off');
      expect(run.exitCode, run.stderr).toBe(0);
      // Claude Code expanded the plugin's command into the prompt: it asks for `slash off`.
      const first = session.requests.find((r) => r.answer === 'step');
      expect(JSON.stringify(first?.body)).toContain('slash off');

      const results = toolResults(session);
      expect(results[0], 'agent-checkpoint-hook --version in the Bash tool').toContain(VERSION);
      expect(results[0]).not.toMatch(/not found/);
      expect(results[1], 'agent-checkpoint-hook slash off in the Bash tool').toContain(`Checkpoints off for session ${session.sessionId} (the newest claude session here`);

      // The stop after the daemon edit passed: no checkpoint delivered, nothing past the script, and
      // the plugin's hook says why.
      expect(session.requests.filter((r) => r.answer === 'fallback')).toEqual([]);
      expect(session.requests.flatMap((r) => (findDeliveredCheckpoint('claude-hook', r.body) === undefined ? [] : [r.n]))).toEqual([]);
      const log = readFileSync(path.join(session.workspace.root, 'state', 'debug.log'), 'utf8');
      expect(log).toMatch(/switched-off|checkpoints are off/);
      expect(results.some((r) => r.includes(RESTART_COMMAND))).toBe(false);
    });
  }, 240_000);
});
