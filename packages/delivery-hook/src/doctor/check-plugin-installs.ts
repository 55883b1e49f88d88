import { join } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import type { DoctorFinding } from '@agent-checkpoint/setup-kit';
import { codexHome } from '../agents/codex-profile.ts';
import { profileOf } from '../agents/profiles.ts';
import { codexPluginTrustKey } from '../install/codex-trust-entries.ts';
import { readCodexConfig, type PluginInstall } from '../install/plugin-installs.ts';
import { homeOf, type InstallScope, type LocationContext } from '../install/settings-locations.ts';

/**
 * Doctor's view of the installs an agent manages itself (plugin, extension): each one with the bin
 * it runs; a local-path marketplace or linked folder that moved or was deleted (the agent then runs
 * no hook of ours, silently), with the command that re-adds it from the repository URL; two active
 * installs for one agent (every hook runs twice), with the command that removes one.
 */
export function checkPluginInstalls(agent: AgentId, plugins: readonly PluginInstall[], registered: readonly InstallScope[], location: LocationContext): DoctorFinding[] {
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
      fix: `keep the ${formName(active[0]!)} and remove the settings copy: agent-checkpoint-hook uninstall --agent ${agent}${scope === 'project' ? ' --scope project' : ''} (or the other way round: ${active[0]!.removeCommand})`,
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
  if (agent === 'codex') findings.push(...codexPluginTrust(active, location));
  return findings;
}

function describePlugin(title: string, plugin: PluginInstall): DoctorFinding {
  const id = `${plugin.agent}.plugin.${plugin.id}`;
  const what = `${title}: ${formName(plugin)} ${plugin.id}`;
  const from = describeSource(plugin);
  if (plugin.source.kind === 'local-path' && !plugin.source.present) {
    return {
      id,
      status: plugin.enabled || plugin.agent === 'gemini' ? 'fail' : 'warn',
      title: `${what}: its ${plugin.agent === 'gemini' ? 'linked folder' : 'local marketplace'} ${plugin.source.path} is gone (moved or deleted)`,
      detail: `${
        plugin.agent === 'claude'
          ? 'Claude Code reads a folder marketplace in place: it reports "failed to load: cache-miss" and runs no hook of ours, with no warning in the session.'
          : plugin.agent === 'gemini'
            ? 'Gemini CLI runs a linked extension from that folder: no hook of ours runs.'
            : 'Codex keeps running its cached copy, but cannot update it from there.'
      }\nA marketplace added from a git URL survives: the agent keeps its own clone.`,
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

/** Codex runs a plugin's hooks only once trusted, like any hook: the Stop handler's trust entry. */
function codexPluginTrust(active: readonly PluginInstall[], location: LocationContext): DoctorFinding[] {
  if (active.length === 0) return [];
  const configPath = join(codexHome({ env: location.env, home: homeOf(location), cwd: location.cwd }), 'config.toml');
  const state = ((readCodexConfig(configPath)?.['hooks'] as Record<string, unknown> | undefined)?.['state'] ?? {}) as Record<string, { trusted_hash?: unknown }>;
  return active.map((plugin) =>
    typeof state[codexPluginTrustKey(plugin.id, 'Stop', 0, 0)]?.trusted_hash === 'string'
      ? { id: `codex.trust.${plugin.id}`, status: 'ok', title: `Codex CLI: the Stop hook of the plugin ${plugin.id} is trusted`, detail: `a trusted_hash is recorded in ${configPath}` }
      : {
          id: `codex.trust.${plugin.id}`,
          status: 'warn',
          title: `Codex CLI: the Stop hook of the plugin ${plugin.id} is not trusted yet`,
          detail: 'Codex skips untrusted hooks; `codex exec` does so silently.',
          fix: 'start `codex` in a terminal and trust the hooks when it shows "Hooks need review" (or /hooks)',
        },
  );
}
