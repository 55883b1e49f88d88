import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCheckout } from '../src/harness/clone-checkout.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { ownInstallSession } from '../src/harness/own-install.ts';
import { addClaudePlugin } from '../src/harness/plugin-route-install.ts';
import { say, type Scenario } from '../src/mock/scenario.ts';
import { ClaudeSession } from '../src/run-claude.ts';

/**
 * Issue 24: the Claude Code plugin's commands (plugins/agent-checkpoint/commands/*.md) under a plugin
 * root holding `"`, `'`, `$(…)` and `;`. A local-directory marketplace runs the plugin from the clone,
 * wherever the user cloned it, and Claude Code 2.1.330 pastes `${CLAUDE_PLUGIN_ROOT}` into a command's
 * text — its `!`-lines included — as plain text, without setting it in their environment: the earlier
 * `!`node "${CLAUDE_PLUGIN_ROOT}/dist/…" status`` ran `$(touch MARKER1)` and `touch MARKER2` from the
 * path (a backquote in the path instead cuts the `!`-pattern short: a shell syntax error). The
 * commands now name the plugin's bin by name, `agent-checkpoint-hook`: Claude Code puts the plugin's
 * `bin/` on the PATH of `!`-lines and of the Bash tool — unless its path holds such characters, when
 * the command is not found and nothing runs.
 */
const HOSTILE_DIR = `c "dq" 'sq' $(touch MARKER1) ; touch MARKER2 #`;

/** Files named MARKER<n> anywhere under `dir`: something in the install path ran. */
function markers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /(^|\/)MARKER\d$/.test(f));
}

/** Installs the plugin from a clone-like checkout under `parentName` and runs `/agent-checkpoint:<command>`; returns what the model was sent. */
async function runCommand(parentName: string, command: string): Promise<{ body: string; stdout: string; markers: string[]; root: string }> {
  const scenario: Scenario = { name: 'plugin-command-paths', steps: [say('Noted.')] };
  const start = ClaudeSession.start(ownInstallSession(scenario));
  let out: { body: string; stdout: string; markers: string[]; root: string } | undefined;
  await withCheckedSession(start, async (session) => {
    const parent = path.join(session.workspace.root, parentName);
    copyCheckout(path.join(parent, 'agent-checkpoint'));
    await addClaudePlugin(session, parent);
    const run = await session.prompt(`/agent-checkpoint:${command}`);
    expect(run.timedOut, run.stderr).toBe(false);
    const first = session.requests.find((r) => r.answer === 'step');
    out = { body: JSON.stringify(first?.body ?? ''), stdout: run.stdout, markers: markers(session.workspace.root), root: path.join(parent, 'agent-checkpoint', 'plugins', 'agent-checkpoint') };
  });
  return out!;
}

describe.skipIf(SKIP_REAL_CLIS)('the Claude Code plugin’s commands under an install path with ", \', $(…) and ;', () => {
  it('/agent-checkpoint:checkpoint-status: its !-line runs nothing from the path (the bin is not on PATH there, so the command fails cleanly)', async () => {
    const result = await runCommand(HOSTILE_DIR, 'checkpoint-status');
    expect(result.markers).toEqual([]);
    // Claude Code reports the failed !-line itself, and sends the model nothing.
    const failed = result.stdout.split('\n').find((line) => line.includes('Shell command failed for pattern'));
    expect(failed, 'the failed !-line in the stream').toBeDefined();
    expect(failed).toContain('agent-checkpoint-hook: command not found');
    expect(result.body, 'nothing reached the model').toBe('""');
  }, 240_000);

  it('/agent-checkpoint:checkpoint-off: the text the model gets names the bin, not the plugin path', async () => {
    const result = await runCommand(HOSTILE_DIR, 'checkpoint-off');
    expect(result.markers).toEqual([]);
    expect(result.body.includes("agent-checkpoint-hook slash off '<argument text>'"), 'the documented form in the model request').toBe(true);
    expect(result.body.includes('MARKER'), 'the plugin path in the model request').toBe(false);
  }, 240_000);

  it('under a plain path the !-line runs the bin from the plugin’s bin/ on PATH: the status reaches the model', async () => {
    const result = await runCommand('plain dir', 'checkpoint-status');
    expect(result.markers).toEqual([]);
    const tool = path.join(result.root, 'bin', 'agent-checkpoint-hook');
    expect(result.body.includes(`command-line tool: '${tool}'`), `status output with the tool's path in the model's request`).toBe(true);
    expect(result.body.includes('Claude Code: plugin agent-checkpoint@agent-checkpoint (enabled)'), 'status lists the plugin install').toBe(true);
  }, 240_000);
});
