import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { readSettingsFile } from '@agent-checkpoint/setup-kit/read-settings-file';
import { parse as parseJsonc } from 'jsonc-parser';
import { readCodexConfig } from '../agents/codex-config.ts';
import { codexHome } from '../agents/codex-profile.ts';
import { profileOf } from '../agents/profiles.ts';
import type { PluginRouteKind } from '../plugin-route-kind.ts';
import { HOOK_BUNDLE_NAME } from './hook-command.ts';
import type { PluginInstall, PluginSource } from './plugin-install-types.ts';
import { homeOf, type LocationContext } from './settings-locations.ts';

/**
 * The installs of agent-checkpoint that the agents themselves manage (not a settings file we edit),
 * read from the files each pinned CLI writes (observed with Claude Code 2.1.330, Gemini CLI 0.61,
 * Codex CLI 0.169 in temp homes, through their own install commands):
 *
 * | agent | registry | plugin root (what `${…ROOT}` is in the hook command) |
 * | --- | --- | --- |
 * | claude | `~/.claude/plugins/installed_plugins.json` (`plugins["agent-checkpoint@<mp>"][]`), `known_marketplaces.json` (`<mp>.source`, `installLocation`), `settings.json` `enabledPlugins` | a `directory` marketplace: `<its path>/plugins/agent-checkpoint` (read in place: `claude plugin list` says "Read from"); otherwise the entry's `installPath` (`plugins/cache/<mp>/agent-checkpoint/<version>`) |
 * | gemini | `~/.gemini/extensions/agent-checkpoint/.gemini-extension-install.json` (`{source, type: link\|local\|git}`), `extensions/extension-enablement.json` | `link`: `source`; else the extension directory |
 * | codex | `$CODEX_HOME/config.toml` `[plugins."agent-checkpoint@<mp>"] enabled`, `[marketplaces.<mp>] source_type, source` | `$CODEX_HOME/plugins/cache/<mp>/agent-checkpoint/<version>` |
 *
 * Every file here is the agent's and the user's: read with the settings reader (no FIFO, no device,
 * capped), never written by this module.
 */

/** The plugin's name in every agent's registry (plugin.json, gemini-extension.json). */
export const PLUGIN_NAME = 'agent-checkpoint';

/**
 * The reader of each install form's registry. Keyed by the form (the agent profile's
 * `pluginRoute.kind`), not by the agent: the profile says which form its agent installs.
 */
const REGISTRY_READERS: Readonly<Record<PluginRouteKind, (location: LocationContext) => PluginInstall[]>> = {
  'claude-plugin': claudePlugins,
  'gemini-extension': geminiExtensions,
  'codex-plugin': codexPlugins,
};

/** Every install of ours that `agent` manages itself (plugin, extension), enabled or not. */
export function findPluginInstalls(agent: AgentId, location: LocationContext): PluginInstall[] {
  const kind = profileOf(agent).pluginRoute?.kind;
  return kind === undefined ? [] : REGISTRY_READERS[kind](location);
}

/** The installs that run our hooks today. */
export function activePluginInstalls(agent: AgentId, location: LocationContext): PluginInstall[] {
  return findPluginInstalls(agent, location).filter((p) => p.enabled);
}

function claudePlugins(location: LocationContext): PluginInstall[] {
  const dir = join(homeOf(location), '.claude');
  const installed = readJson(join(dir, 'plugins', 'installed_plugins.json'));
  const plugins = asRecord(asRecord(installed)?.['plugins']);
  if (plugins === undefined) return [];
  const marketplaces = asRecord(readJson(join(dir, 'plugins', 'known_marketplaces.json'))) ?? {};
  const userEnabled = enabledPluginsIn(join(dir, 'settings.json'));
  const found: PluginInstall[] = [];
  for (const [id, entries] of Object.entries(plugins)) {
    const marketplace = ourMarketplace(id);
    if (marketplace === undefined || !Array.isArray(entries)) continue;
    const known = asRecord(marketplaces[marketplace]);
    const source = claudeSource(asRecord(known?.['source']));
    for (const entry of entries) {
      const record = asRecord(entry);
      const installPath = typeof record?.['installPath'] === 'string' ? record['installPath'] : undefined;
      // `--scope project|local` installs are turned on in that project's settings, for that project only.
      const scope = record?.['scope'] === 'project' || record?.['scope'] === 'local' ? record['scope'] : 'user';
      const projectPath = typeof record?.['projectPath'] === 'string' ? record['projectPath'] : undefined;
      const enabledHere =
        scope === 'user'
          ? userEnabled[id] === true
          : projectPath !== undefined &&
            isInside(location.cwd, projectPath) &&
            enabledPluginsIn(join(projectPath, '.claude', scope === 'project' ? 'settings.json' : 'settings.local.json'))[id] === true;
      // A folder marketplace is read in place, not from the cache copy.
      const root = source.kind === 'local-path' ? join(source.path, 'plugins', PLUGIN_NAME) : installPath;
      if (root === undefined) continue;
      const bin = join(root, 'dist', HOOK_BUNDLE_NAME);
      found.push({
        agent: 'claude',
        id,
        form: 'claude-plugin',
        // Claude Code turns a plugin on through `enabledPlugins` (`claude plugin install` writes it in the scope's settings).
        enabled: enabledHere,
        bin,
        binPresent: existsSync(bin),
        source,
        marketplace,
        removeCommand: scope === 'user' ? `claude plugin uninstall ${id}` : `cd '${projectPath ?? '.'}' && claude plugin uninstall ${id} --scope ${scope}`,
        readdCommand: `claude plugin marketplace remove ${marketplace} && claude plugin marketplace add <git-url> && claude plugin install ${id}`,
      });
    }
  }
  return found;
}

function enabledPluginsIn(settings: string): Record<string, unknown> {
  return asRecord(asRecord(readJson(settings))?.['enabledPlugins']) ?? {};
}

/** `inner` is `outer` or below it. */
function isInside(inner: string, outer: string): boolean {
  const rel = relative(resolve(outer), resolve(inner));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function claudeSource(source: Record<string, unknown> | undefined): PluginSource {
  if (source === undefined) return { kind: 'other', description: 'marketplace not in known_marketplaces.json' };
  const kind = source['source'];
  if ((kind === 'directory' || kind === 'file') && typeof source['path'] === 'string') return { kind: 'local-path', path: source['path'], present: existsSync(source['path']) };
  if (kind === 'git' && typeof source['url'] === 'string') return { kind: 'git', url: source['url'] };
  if (kind === 'github' && typeof source['repo'] === 'string') return { kind: 'git', url: `https://github.com/${source['repo']}.git` };
  return { kind: 'other', description: JSON.stringify(source) };
}

function geminiExtensions(location: LocationContext): PluginInstall[] {
  const extensions = join(homeOf(location), '.gemini', 'extensions');
  const dir = join(extensions, PLUGIN_NAME);
  if (!existsSync(dir)) return [];
  const meta = asRecord(readJson(join(dir, '.gemini-extension-install.json')));
  const type = meta?.['type'];
  const from = typeof meta?.['source'] === 'string' ? meta['source'] : undefined;
  const source: PluginSource =
    from === undefined
      ? { kind: 'other', description: 'no .gemini-extension-install.json' }
      : type === 'git' || type === 'github-release'
        ? { kind: 'git', url: from }
        : { kind: 'local-path', path: from, present: existsSync(from) };
  // `link` runs the source folder itself; `local` and `git` run the copy in the extension directory.
  const root = type === 'link' && from !== undefined ? from : dir;
  const bin = join(root, 'plugins', PLUGIN_NAME, 'dist', HOOK_BUNDLE_NAME);
  const enablement = asRecord(readJson(join(extensions, 'extension-enablement.json')));
  return [
    {
      agent: 'gemini',
      id: PLUGIN_NAME,
      form: 'gemini-extension',
      enabled: geminiEnabledAt(asRecord(enablement?.[PLUGIN_NAME])?.['overrides'], location.cwd),
      bin,
      binPresent: existsSync(bin),
      // A `local` install is a copy: the folder it was copied from is only needed to update it.
      source: type === 'local' && source.kind === 'local-path' ? { ...source, present: true } : source,
      removeCommand: `gemini extensions uninstall ${PLUGIN_NAME}`,
      readdCommand: `gemini extensions uninstall ${PLUGIN_NAME} && gemini extensions install <git-url>`,
    },
  ];
}

/**
 * Gemini CLI's `extension-enablement.json` overrides: `<dir>/*` enables below `dir`, `!<dir>/*`
 * disables; the last rule matching the directory wins, and an extension with no rule is enabled.
 */
export function geminiEnabledAt(overrides: unknown, cwd: string): boolean {
  if (!Array.isArray(overrides)) return true;
  let enabled = true;
  const here = `${resolve(cwd)}${sep}`;
  for (const rule of overrides) {
    if (typeof rule !== 'string') continue;
    const negated = rule.startsWith('!');
    const pattern = negated ? rule.slice(1) : rule;
    const base = pattern.endsWith('*') ? pattern.slice(0, -1) : `${pattern}${sep}`;
    if (here.startsWith(base.endsWith(sep) ? base : `${base}${sep}`)) enabled = !negated;
  }
  return enabled;
}

function codexPlugins(location: LocationContext): PluginInstall[] {
  const home = codexHome({ env: location.env, home: homeOf(location), cwd: location.cwd });
  const config = readCodexConfig(join(home, 'config.toml'));
  const plugins = asRecord(config?.['plugins']);
  if (plugins === undefined) return [];
  const marketplaces = asRecord(config?.['marketplaces']) ?? {};
  const found: PluginInstall[] = [];
  for (const [id, value] of Object.entries(plugins)) {
    const marketplace = ourMarketplace(id);
    if (marketplace === undefined) continue;
    const known = asRecord(marketplaces[marketplace]);
    const from = typeof known?.['source'] === 'string' ? known['source'] : undefined;
    const source: PluginSource =
      from === undefined
        ? { kind: 'other', description: `no [marketplaces.${marketplace}] in config.toml` }
        : known?.['source_type'] === 'local'
          ? { kind: 'local-path', path: from, present: existsSync(from) }
          : { kind: 'git', url: from };
    const cache = join(home, 'plugins', 'cache', marketplace, PLUGIN_NAME);
    const versions = listDirs(cache);
    const root = join(cache, versions.at(-1) ?? '<version>');
    const bin = join(root, 'dist', HOOK_BUNDLE_NAME);
    found.push({
      agent: 'codex',
      id,
      form: 'codex-plugin',
      enabled: asRecord(value)?.['enabled'] !== false,
      bin,
      binPresent: existsSync(bin),
      source,
      marketplace,
      removeCommand: `codex plugin remove ${id}`,
      readdCommand: `codex plugin marketplace remove ${marketplace} && codex plugin marketplace add <git-url> && codex plugin add ${id}`,
    });
  }
  return found;
}

/** `<marketplace>` of `agent-checkpoint@<marketplace>`, or undefined for another plugin. */
function ourMarketplace(id: string): string | undefined {
  const prefix = `${PLUGIN_NAME}@`;
  return id.startsWith(prefix) && id.length > prefix.length ? id.slice(prefix.length) : undefined;
}


function readJson(path: string): unknown {
  const read = readSettingsFile(path);
  if (read.kind !== 'file') return undefined;
  return parseJsonc(read.bytes.toString('utf8'), [], { allowTrailingComma: true }) as unknown;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  } catch {
    return [];
  }
}
