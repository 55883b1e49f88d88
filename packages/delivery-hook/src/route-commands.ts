import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { CLI_USER_COMMANDS, forShellArg, type AgentId, type UserCommands } from '@agent-checkpoint/core';
import { pluginRouteOfKind, profileOf } from './agents/profiles.ts';
import type { PluginRouteKind } from './plugin-route-kind.ts';

/**
 * Where the running hook was installed from, as its agent started it:
 * - `settings`: `agent-checkpoint-hook install` wrote the hook into the agent's settings (the tool is
 *   the package's bin, on the PATH);
 * - `claude-plugin`, `codex-plugin`: the plugin's hooks file, started with the plugin root in the
 *   environment (`CLAUDE_PLUGIN_ROOT`, `PLUGIN_ROOT`);
 * - `gemini-extension`: the extension's hooks, started with `AGENT_CHECKPOINT_EXTENSION_PATH` set to
 *   `${extensionPath}` (gemini-extension.json); the plugin is under `plugins/agent-checkpoint` there.
 * `pluginRoot` is the plugin's directory (its `bin/` and `dist/`).
 */
export type InstallRoute = { readonly kind: 'settings' } | { readonly kind: PluginRouteKind; readonly pluginRoot: string };

/** The plugin's command-line tool, relative to the plugin root (plugins/agent-checkpoint/bin). */
export const PLUGIN_TOOL = join('bin', 'agent-checkpoint-hook');

/** The route of a hook run by `agent` with this environment. A variable of another agent is ignored. */
export function installRouteOf(agent: AgentId, env: Readonly<Record<string, string | undefined>>): InstallRoute {
  const plugin = profileOf(agent).pluginRoute;
  if (plugin === undefined) return { kind: 'settings' };
  const root = env[plugin.rootEnv];
  return root !== undefined && root !== '' && isAbsolute(root) ? { kind: plugin.kind, pluginRoot: plugin.pluginRootFrom(root) } : { kind: 'settings' };
}

/**
 * The commands a person is told to run, in the form that works on `route`: for a settings install
 * `agent-checkpoint-hook …` (the package's bin on the PATH); for a plugin or extension, the forms its
 * profile gives (`pluginRoute.userCommands`: slash commands where the agent has them, else the
 * plugin's bin by its absolute path, quoted for the shell).
 */
export function userCommandsOf(route: InstallRoute): UserCommands {
  if (route.kind === 'settings') return CLI_USER_COMMANDS;
  return { ...pluginRouteOfKind(route.kind).userCommands(pluginToolWord(route.pluginRoot)), agentCheckpoint: `${agentToolCommandOf(route)} checkpoint` };
}

/** The plugin's bin as one shell word (quoted when the path needs it). */
export function pluginToolWord(pluginRoot: string): string {
  return forShellArg(join(pluginRoot, PLUGIN_TOOL));
}

/**
 * The plugin's command-line tool beside a running bundle (`<plugin root>/dist/…` → `<plugin
 * root>/bin/agent-checkpoint-hook`), when there is one: `status` and `doctor` print it, since only
 * Claude Code puts it on a PATH (its Bash tool's). Undefined for a package install.
 */
export function pluginToolBeside(bundle: string): string | undefined {
  const tool = join(dirname(dirname(bundle)), PLUGIN_TOOL);
  return existsSync(tool) ? tool : undefined;
}

/**
 * The bin as the agent itself can run it with its shell tool on `route`, as shell words to put before
 * a command's arguments (a message to the model names it): `agent-checkpoint-hook` where it is on the
 * agent's PATH (a settings install; Claude Code's Bash tool with the plugin's bin/, unless its path
 * holds a character Claude drops it for: the profile's `pluginBinOnAgentPath`), else `node <plugin root>/dist/agent-checkpoint-hook.cjs`
 * with the path quoted (node needs no executable bit, whatever the agent's copy kept).
 */
export function agentToolCommandOf(route: InstallRoute): string {
  if (route.kind === 'settings' || pluginRouteOfKind(route.kind).pluginBinOnAgentPath(route.pluginRoot)) return 'agent-checkpoint-hook';
  return `node ${forShellArg(join(route.pluginRoot, 'dist', 'agent-checkpoint-hook.cjs'))}`;
}

/**
 * The command-line tool as a person types it in a terminal, for a command run from `bundle` (`status`,
 * `doctor`, `checkpoint`… name their follow-up commands with it): `agent-checkpoint-hook` for the
 * package's bin, and for a plugin's bundle too when that name on `PATH` is this plugin's tool (a
 * link the user made); else the plugin's tool by its absolute path, one shell word, since no agent
 * puts it on a terminal's PATH.
 */
export function terminalToolOf(bundle: string, env: Readonly<Record<string, string | undefined>>): string {
  const tool = pluginToolBeside(bundle);
  if (tool === undefined || isOnPath(tool, env)) return 'agent-checkpoint-hook';
  return forShellArg(tool);
}

/**
 * Whether `agent-checkpoint-hook` on `env.PATH` is `tool` (the same file, links resolved) by a link
 * a person made: found through the plugin's own `bin/` directory does not count, since that entry is
 * the one Claude Code adds to its Bash tool's PATH, which a terminal does not have (the model runs
 * `status` there, and the line is for the person reading it).
 */
export function isOnPath(tool: string, env: Readonly<Record<string, string | undefined>>): boolean {
  const real = realPathOrUndefined(tool);
  if (real === undefined) return false;
  const pluginBin = realPathOrUndefined(dirname(tool));
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const found = realPathOrUndefined(join(dir, 'agent-checkpoint-hook'));
    // The first match is what the shell runs: another tool earlier on the PATH hides ours.
    if (found !== undefined) return found === real && realPathOrUndefined(dir) !== pluginBin;
  }
  return false;
}

function realPathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
