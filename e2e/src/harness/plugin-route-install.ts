import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { AgentSession } from './agent-session.ts';
import { E2E_PACKAGE_DIR } from './agent-clis.ts';
import { runInGroup, type ProcessResult } from './process-group.ts';

/**
 * The plugin route as users install it, for tests that need every hook of the plugin (Stop,
 * SessionStart, PreCompact, PostToolUse, UserPromptSubmit; Gemini's AfterAgent, SessionStart,
 * PreCompress, AfterTool, BeforeAgent) rather than one hook put into the settings by hand:
 *
 * - Claude Code: `claude plugin marketplace add ./agent-checkpoint` and `claude plugin install
 *   agent-checkpoint@agent-checkpoint`, run next to a copy of the marketplace (`.claude-plugin/` and
 *   `plugins/agent-checkpoint/`, the files git tracks, as they are in this checkout);
 * - Gemini CLI: `pnpm gemini-extension <dir>` (the documented staging of a development clone), then
 *   `gemini extensions install <dir> --consent`.
 *
 * The plugin runs its committed bundle (`plugins/agent-checkpoint/dist/`): run `pnpm build:plugin`
 * first to test the current sources (the files are copied from the working tree).
 */

/** This checkout. */
export const REPO_ROOT = path.dirname(E2E_PACKAGE_DIR);

const PLUGIN = 'agent-checkpoint';
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
 * Installs agent-checkpoint into the session's HOME with the agent's own plugin commands (see the
 * module comment). Claude Code and Gemini CLI only: Codex's plugin hooks need the trust step in its
 * TUI (`plugin-install.test.ts`).
 */
export async function installPluginRoute(session: AgentSession): Promise<void> {
  const dir = path.join(session.workspace.root, 'plugin-source');
  switch (session.agent) {
    case 'claude': {
      const marketplace = path.join(dir, PLUGIN);
      copyTracked(['.claude-plugin', `plugins/${PLUGIN}`], marketplace);
      await runCli(session, ['plugin', 'marketplace', 'add', `./${PLUGIN}`], dir);
      await runCli(session, ['plugin', 'install', `${PLUGIN}@${PLUGIN}`], dir);
      return;
    }
    case 'gemini': {
      const staged = path.join(dir, 'extension');
      execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'stage-gemini-extension.mjs'), staged], { cwd: REPO_ROOT, stdio: 'pipe', timeout: 60_000 });
      await runCli(session, ['extensions', 'install', staged, '--consent']);
      return;
    }
    case 'codex':
      throw new Error('installPluginRoute: the Codex plugin needs its TUI trust step (plugin-install.test.ts)');
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
