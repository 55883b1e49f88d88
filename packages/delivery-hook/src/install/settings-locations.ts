import { findProjectRoot, type AgentId } from '@agent-checkpoint/core';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Where hooks are registered: for every project of the user, or for one repository. */
export type InstallScope = 'user' | 'project';

type Env = Readonly<Record<string, string | undefined>>;

/** What locating a settings file needs (real values in the bin, temp dirs in tests). */
export interface LocationContext {
  readonly env: Env;
  /** Defaults to `$HOME`, then `os.homedir()`. */
  readonly home?: string;
  /** The directory the command runs for (`--cwd`): its repository root holds project settings. */
  readonly cwd: string;
}

export function homeOf(context: LocationContext): string {
  return context.home ?? nonEmpty(context.env['HOME']) ?? homedir();
}

/** `$CODEX_HOME` when set (absolute, or relative to cwd as Codex does), else `~/.codex`. */
export function codexHome(context: LocationContext): string {
  const value = nonEmpty(context.env['CODEX_HOME']);
  if (value !== undefined) return isAbsolute(value) ? value : resolve(context.cwd, value);
  return join(homeOf(context), '.codex');
}

/**
 * The settings file holding an agent's hooks:
 *
 * | agent | user | project |
 * | --- | --- | --- |
 * | claude | `~/.claude/settings.json` | `<repo>/.claude/settings.json` |
 * | gemini | `~/.gemini/settings.json` | `<repo>/.gemini/settings.json` |
 * | codex | `$CODEX_HOME/hooks.json` (`~/.codex/hooks.json`) | `<repo>/.codex/hooks.json` |
 *
 * `<repo>` is the nearest ancestor of `cwd` with a `.git`, else `cwd`.
 */
export function settingsPath(agent: AgentId, scope: InstallScope, context: LocationContext): string {
  const base = scope === 'user' ? undefined : findProjectRoot(context.cwd);
  switch (agent) {
    case 'claude':
      return join(base ?? homeOf(context), '.claude', 'settings.json');
    case 'gemini':
      return join(base ?? homeOf(context), '.gemini', 'settings.json');
    case 'codex':
      return base === undefined ? join(codexHome(context), 'hooks.json') : join(base, '.codex', 'hooks.json');
  }
}

/** The agent's own directory in the home, whose presence says the agent has been used here. */
export function agentHomeDir(agent: AgentId, context: LocationContext): string {
  switch (agent) {
    case 'claude':
      return join(homeOf(context), '.claude');
    case 'gemini':
      return join(homeOf(context), '.gemini');
    case 'codex':
      return codexHome(context);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
