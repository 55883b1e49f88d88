import type { AgentId } from '@agent-checkpoint/core';
import type { DoctorFinding } from '@agent-checkpoint/setup-kit';
import { pluginRouteOfKind, profileOf } from '../agents/profiles.ts';
import type { InstallScope } from '../install/install-scope.ts';
import type { PluginInstall } from '../install/plugin-install-types.ts';
import { agentLocation, type LocationContext } from '../install/settings-locations.ts';

/**
 * Doctor's view of the installs an agent manages itself (plugin, extension): each one with the bin
 * it runs; a local-path marketplace or linked folder that moved or was deleted (the agent then runs
 * no hook of ours, silently), with the command that re-adds it from the repository URL; two active
 * installs for one agent (every hook runs twice), with the command that removes one; and what the
 * agent's profile checks on its active installs (Codex: whether their hooks are trusted).
 */
export async function checkPluginInstalls(agent: AgentId, plugins: readonly PluginInstall[], registered: readonly InstallScope[], location: LocationContext, tool = 'agent-checkpoint-hook'): Promise<DoctorFinding[]> {
  const title = profileOf(agent).title;
  const findings: DoctorFinding[] = [];
  for (const plugin of plugins) findings.push(describePlugin(title, plugin));
  const active = plugins.filter((p) => p.enabled);
  if (active.length > 0 && registered.length > 0) {
    const scope = registered[0]!;
    findings.push({
      id: `${agent}.install.twice`,
      status: 'fail',
      title: `${title}: two active installs: the ${formName(active[0]!)} ${active[0]!.id} and the settings install (${registered.join(' and ')})`,
      detail: 'Each hook of ours is registered twice: every turn end, prompt and tool call starts it twice.',
      fix: `keep the ${formName(active[0]!)} and remove the settings copy: ${tool} uninstall --agent ${agent}${scope === 'project' ? ' --scope project' : ''} (or the other way round: ${active[0]!.removeCommand})`,
    });
  } else if (active.length > 1) {
    findings.push({
      id: `${agent}.install.twice`,
      status: 'fail',
      title: `${title}: ${active.length} active installs: ${active.map((p) => p.id).join(', ')}`,
      detail: 'Each hook of ours is registered once per install.',
      fix: `remove all but one: ${active
        .slice(1)
        .map((p) => p.removeCommand)
        .join('; ')}`,
    });
  }
  findings.push(...((await profileOf(agent).pluginRoute?.activeInstallFindings(active, agentLocation('user', location))) ?? []));
  return findings;
}

function describePlugin(title: string, plugin: PluginInstall): DoctorFinding {
  // An install was found, so its agent has a plugin route (the form comes from it).
  const { sourceGone } = pluginRouteOfKind(plugin.form);
  const id = `${plugin.agent}.plugin.${plugin.id}`;
  const what = `${title}: ${formName(plugin)} ${plugin.id}`;
  const from = describeSource(plugin);
  if (plugin.source.kind === 'local-path' && !plugin.source.present) {
    return {
      id,
      status: plugin.enabled || sourceGone.failsWhenDisabled ? 'fail' : 'warn',
      title: `${what}: its ${sourceGone.what} ${plugin.source.path} is gone (moved or deleted)`,
      detail: `${sourceGone.effect}\nA marketplace added from a git URL survives: the agent keeps its own clone.`,
      fix: `re-add it from the repository URL: ${plugin.readdCommand}`,
    };
  }
  if (!plugin.enabled) return { id, status: 'info', title: `${what}: installed but disabled (its hooks do not run)`, detail: from };
  if (!plugin.binPresent) {
    return { id, status: 'fail', title: `${what}: the hook bin it runs is missing`, detail: `${plugin.bin}\n${from}`, fix: `reinstall it: ${plugin.removeCommand}, then install it again` };
  }
  return { id, status: 'ok', title: `${what} (enabled): runs ${plugin.bin}`, detail: from };
}

function describeSource(plugin: PluginInstall): string {
  switch (plugin.source.kind) {
    case 'local-path':
      return `from the local path ${plugin.source.path} (keep that folder where it is, or re-add from the git URL: ${plugin.readdCommand})`;
    case 'git':
      return `from the repository ${plugin.source.url}`;
    case 'other':
      return `from ${plugin.source.description}`;
  }
}

function formName(plugin: PluginInstall): string {
  return plugin.form === 'gemini-extension' ? 'extension' : 'plugin';
}
