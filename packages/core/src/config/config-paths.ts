import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Name of the project configuration file, at the repository root. */
export const PROJECT_CONFIG_FILE = '.agent-checkpoint.json';

/**
 * Environment variable naming the user-level configuration file, replacing the XDG location (tests,
 * sandboxes, dotfile setups). An explicitly named file that does not exist is a diagnostic.
 */
export const USER_CONFIG_ENV = 'AGENT_CHECKPOINT_CONFIG';

type Env = Readonly<Record<string, string | undefined>>;

export { findProjectRoot } from '../project-root.ts';

/** An XDG base directory: the variable when it is set to an absolute path (the spec ignores relative ones), else the fallback. */
function xdgDir(env: Env, variable: string, homeDir: string | undefined, ...fallback: string[]): string {
  const value = env[variable];
  if (value !== undefined && value !== '' && isAbsolute(value)) return value;
  return join(homeDir ?? homeOf(env), ...fallback);
}

/**
 * The home directory of the given environment: its absolute `HOME` when set, else the process's. A
 * caller that passes its own environment (tests, `explain --cwd`) must not read or write the real home.
 */
function homeOf(env: Env): string {
  const home = env['HOME'];
  return home !== undefined && home !== '' && isAbsolute(home) ? home : homedir();
}

/** Where the user-level file is looked for, and whether it was named explicitly. */
export function userConfigPath(env: Env, homeDir: string | undefined): { path: string; explicit: boolean } {
  const explicit = env[USER_CONFIG_ENV];
  if (explicit !== undefined && explicit !== '') return { path: resolve(explicit), explicit: true };
  return { path: join(xdgDir(env, 'XDG_CONFIG_HOME', homeDir, '.config'), 'agent-checkpoint', 'config.json'), explicit: false };
}

/** Cache of validated configuration files: `$XDG_CACHE_HOME/agent-checkpoint/config` or `~/.cache/agent-checkpoint/config`. */
export function configCacheDir(env: Env, homeDir: string | undefined): string {
  return join(xdgDir(env, 'XDG_CACHE_HOME', homeDir, '.cache'), 'agent-checkpoint', 'config');
}
