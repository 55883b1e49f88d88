import type { AgentId } from '@agent-checkpoint/core';
import { AGENT_IDS, forShellArg } from '@agent-checkpoint/core';
import { isOnPath, pluginToolBeside } from '../route-commands.ts';
import { readSettingsFile } from '@agent-checkpoint/setup-kit/read-settings-file';
import { profileOf } from '../agents/profiles.ts';
import { findOurHookEntries } from './edit-agent-hooks.ts';
import type { InstallScope } from './install-scope.ts';
import type { PluginInstall } from './plugin-install-types.ts';
import { findPluginInstalls } from './plugin-installs.ts';
import { settingsPath, type LocationContext } from './settings-locations.ts';

/** One install of ours, whatever its form: a settings entry we wrote, or the agent's plugin/extension. */
export type InstallView =
  | { readonly form: 'settings'; readonly agent: AgentId; readonly scope: InstallScope; readonly path: string; readonly bin: string | undefined }
  | { readonly form: 'plugin'; readonly agent: AgentId; readonly plugin: PluginInstall };

/**
 * Every install of ours for each agent, as `status` shows them: the settings files holding our
 * turn-end hook (user, project) with the bin the command starts, and the agents' own installs
 * (plugin, extension). Doctor checks the same places in depth (check-agent-hooks.ts).
 */
export function listInstalls(location: LocationContext): InstallView[] {
  const views: InstallView[] = [];
  for (const agent of AGENT_IDS) {
    const turnEnd = profileOf(agent).hookEntries[0]!.event;
    for (const scope of ['user', 'project'] as const) {
      const path = settingsPath(agent, scope, location);
      if (scope === 'project' && path === settingsPath(agent, 'user', location)) continue;
      const read = readSettingsFile(path);
      if (read.kind !== 'file') continue;
      const entry = findOurHookEntries(read.bytes.toString('utf8')).find((e) => e.event === turnEnd);
      if (entry === undefined) continue;
      views.push({ form: 'settings', agent, scope, path, bin: bundleOf(entry.command) });
    }
    for (const plugin of findPluginInstalls(agent, location)) views.push({ form: 'plugin', agent, plugin });
  }
  return views;
}

/** The `…/agent-checkpoint-hook.cjs` a command of ours starts (second word, quoted or not). */
function bundleOf(command: string): string | undefined {
  const match = /^\s*(?:"[^"]*"|'[^']*'|\S+)\s+("([^"]*)"|'([^']*)'|(\S+))/.exec(command);
  return match?.[2] ?? match?.[3] ?? match?.[4];
}

/**
 * One line per install, and a line per agent with two active ones (every hook would run twice). A
 * plugin or extension install also names its command-line tool by its path when that is not on the
 * PATH (no agent puts it on a terminal's). `tool` is the command-line tool of the running command,
 * as a person types it (route-commands.ts `terminalToolOf`).
 */
export function describeInstalls(views: readonly InstallView[], tool: string, env: Readonly<Record<string, string | undefined>>): string[] {
  if (views.length === 0) return [`installs: none found (${tool} doctor says how to install)`];
  const lines = ['installs:'];
  for (const view of views) {
    const title = profileOf(view.agent).title;
    if (view.form === 'settings') {
      lines.push(`  ${title}: settings (${view.scope}) ${view.path}${view.bin === undefined ? '' : ` → runs ${view.bin}`}`);
      continue;
    }
    const p = view.plugin;
    const what = p.form === 'gemini-extension' ? 'extension' : 'plugin';
    const state = p.source.kind === 'local-path' && !p.source.present ? `broken: ${p.source.path} is gone (${tool} doctor)` : p.enabled ? 'enabled' : 'disabled';
    lines.push(`  ${title}: ${what} ${p.id} (${state}) → runs ${p.bin}${p.binPresent ? '' : ' (missing)'}`);
    const pluginTool = pluginToolBeside(p.bin);
    if (pluginTool !== undefined) lines.push(`    its command-line tool: ${isOnPath(pluginTool, env) ? 'agent-checkpoint-hook (on the PATH)' : forShellArg(pluginTool)}`);
  }
  for (const agent of AGENT_IDS) {
    const active = views.filter((v) => v.agent === agent && (v.form === 'settings' || v.plugin.enabled));
    if (active.length > 1 && active.some((v) => v.form === 'plugin')) {
      lines.push(`  ${profileOf(agent).title}: two active installs, every hook runs twice: ${tool} doctor names the command that removes one`);
    }
  }
  return lines;
}
