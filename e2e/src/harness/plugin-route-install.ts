import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { CODEX_SCREEN } from '../run-codex-tui.ts';
import type { AgentSession } from './agent-session.ts';
import { E2E_PACKAGE_DIR } from './agent-clis.ts';
import { runInGroup, type ProcessResult } from './process-group.ts';
import { TmuxServer } from './tmux.ts';

/**
 * The plugin route as users install it, for tests that need every hook of the plugin (Stop,
 * SessionStart, PreCompact, PostToolUse, UserPromptSubmit; Gemini's AfterAgent, SessionStart,
 * PreCompress, AfterTool, BeforeAgent) rather than one hook put into the settings by hand:
 *
 * - Claude Code: `claude plugin marketplace add ./agent-checkpoint` and `claude plugin install
 *   agent-checkpoint@agent-checkpoint`, run next to a copy of the marketplace (`.claude-plugin/` and
 *   `plugins/agent-checkpoint/`, the files git tracks, as they are in this checkout);
 * - Gemini CLI: `pnpm gemini-extension <dir>` (the documented staging of a development clone), then
 *   `gemini extensions install <dir> --consent`;
 * - Codex CLI: `codex plugin marketplace add ./agent-checkpoint` and `codex plugin add
 *   agent-checkpoint@agent-checkpoint`, then the trust step in its TUI ({@link trustHooksInCodexTui}),
 *   after which a plain `codex exec` runs the plugin's hooks.
 *
 * The plugin runs its committed bundle (`plugins/agent-checkpoint/dist/`): run `pnpm build:plugin`
 * first to test the current sources (the files are copied from the working tree).
 */

/** This checkout. */
export const REPO_ROOT = path.dirname(E2E_PACKAGE_DIR);

const PLUGIN = 'agent-checkpoint';
const MARKETPLACE = 'agent-checkpoint';
const CLI_TIMEOUT_MS = 90_000;

/** Runs the session's CLI with `args` (deadline, own process group); it must exit 0. */
export async function runCli(session: AgentSession, args: readonly string[], cwd = session.workspace.repo): Promise<ProcessResult> {
  const result = await runInGroup([...session.cli.argv, ...args], { cwd, env: session.env(), timeoutMs: CLI_TIMEOUT_MS });
  expect(result.timedOut, `${args.join(' ')} timed out:\n${result.stderr}`).toBe(false);
  expect(result.exitCode, `${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

/** Copies the tracked files under `parts` from this checkout's working tree to `dest`. */
function copyTracked(parts: readonly string[], dest: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--', ...parts], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
    .split('\0')
    .filter((f) => f !== '' && existsSync(path.join(REPO_ROOT, f)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dest, file)), { recursive: true });
    cpSync(path.join(REPO_ROOT, file), path.join(dest, file), { verbatimSymlinks: true });
  }
}

/**
 * Claude Code's own install of the plugin, as a user types it next to a clone (or a copy of the
 * marketplace) at `<parent>/agent-checkpoint`: `claude plugin marketplace add ./agent-checkpoint`,
 * then `claude plugin install agent-checkpoint@agent-checkpoint`.
 */
export async function addClaudePlugin(session: AgentSession, parent: string): Promise<void> {
  await runCli(session, ['plugin', 'marketplace', 'add', `./${PLUGIN}`], parent);
  await runCli(session, ['plugin', 'install', `${PLUGIN}@${MARKETPLACE}`], parent);
}

/** Installs agent-checkpoint into the session's HOME with the agent's own plugin commands (see the module comment). */
export async function installPluginRoute(session: AgentSession): Promise<void> {
  const dir = path.join(session.workspace.root, 'plugin-source');
  switch (session.agent) {
    case 'claude':
    case 'codex': {
      // One marketplace serves both: `.claude-plugin/marketplace.json` (Claude Code), `.agents/plugins/marketplace.json` (Codex).
      copyTracked(['.claude-plugin', '.agents', `plugins/${PLUGIN}`], path.join(dir, PLUGIN));
      if (session.agent === 'claude') {
        await addClaudePlugin(session, dir);
        return;
      }
      await runCli(session, ['plugin', 'marketplace', 'add', `./${PLUGIN}`], dir);
      await runCli(session, ['plugin', 'add', `${PLUGIN}@${MARKETPLACE}`], dir);
      await trustHooksInCodexTui(session);
      return;
    }
    case 'gemini': {
      const staged = path.join(dir, 'extension');
      execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'stage-gemini-extension.mjs'), staged], { cwd: REPO_ROOT, stdio: 'pipe', timeout: 60_000 });
      await runCli(session, ['extensions', 'install', staged, '--consent']);
      return;
    }
  }
}

/**
 * The Codex trust step as a user does it: start `codex` in a terminal (tmux here; `--no-daemon` keeps
 * its app server in-process), which opens with "Hooks need review" for the plugin's five hooks (Stop, SessionStart, PreCompact, PostToolUse, UserPromptSubmit);
 * choose "Trust all and continue"; wait for the composer; quit. Codex records the trust in
 * config.toml (`[hooks.state."agent-checkpoint@agent-checkpoint:hooks/codex-hooks.json:<event>:0:0"]`).
 */
export async function trustHooksInCodexTui(session: AgentSession): Promise<void> {
  const tmux = TmuxServer.start({
    cwd: session.workspace.repo,
    env: { ...session.env(), TMUX_TMPDIR: session.workspace.tmp },
    argv: [...session.cli.argv, '--no-daemon'],
    configDir: session.workspace.logs,
  });
  try {
    const review = await tmux.waitForScreen((screen) => screen.includes('Trust all and continue'), { timeoutMs: 60_000, what: 'the hooks review prompt' });
    expect(review).toContain('Hooks need review');
    expect(review).toContain('5 hooks are new or changed');
    // The prompt can be on screen before Codex reads keys: press again until the choice shows.
    await tmux.pressUntil(['2'], (screen) => /›\s*2\. Trust all and continue/.test(screen), { timeoutMs: 15_000, what: 'the trust choice selected' });
    tmux.sendKeys('Enter');
    await tmux.waitForScreen((screen) => screen.includes(CODEX_SCREEN.composerEmpty), { timeoutMs: 60_000, what: 'the composer after trusting' });
  } finally {
    tmux.kill();
  }
  const config = readFileSync(path.join(session.workspace.home, '.codex', 'config.toml'), 'utf8');
  for (const event of ['stop', 'session_start', 'pre_compact']) {
    expect(config).toContain(`[hooks.state."${PLUGIN}@${MARKETPLACE}:hooks/codex-hooks.json:${event}:0:0"]`);
  }
}

/**
 * Writes the user configuration file the way docs/configuration.md names it,
 * `$XDG_CONFIG_HOME/agent-checkpoint/config.json` (the session's env must set `XDG_CONFIG_HOME`
 * inside its HOME, as `checkpointEnv` does).
 */
export function writeUserConfig(session: AgentSession, config: Readonly<Record<string, unknown>>): string {
  const xdg = session.env()['XDG_CONFIG_HOME'];
  if (xdg === undefined || !xdg.startsWith(session.workspace.home)) throw new Error('writeUserConfig: the session has no XDG_CONFIG_HOME inside its HOME');
  const file = path.join(xdg, 'agent-checkpoint', 'config.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}
