import { findProjectRoot, type AgentId } from '@agent-checkpoint/core';
import { homedir } from 'node:os';
import type { AgentLocation } from '../agents/agent-profile.ts';
import { profileOf } from '../agents/profiles.ts';
import type { InstallScope } from './install-scope.ts';

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

/** What a profile needs to place `agent`'s files: the home, and the repository root for the project scope. */
export function agentLocation(scope: InstallScope, context: LocationContext): AgentLocation {
  return { env: context.env, home: homeOf(context), cwd: context.cwd, projectRoot: scope === 'project' ? findProjectRoot(context.cwd) : undefined };
}

/**
 * The settings file holding an agent's hooks (its profile's `settingsPath`):
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
  return profileOf(agent).settingsPath(scope, agentLocation(scope, context));
}

/** The agent's own directory in the home, whose presence says the agent has been used here. */
export function agentHomeDir(agent: AgentId, context: LocationContext): string {
  return profileOf(agent).homeDir(agentLocation('user', context));
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
