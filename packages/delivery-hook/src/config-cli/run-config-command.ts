import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { forShellArg, forTerminal, jsonForTerminal, loadConfig, PROJECT_CONFIG_FILE, resolveConfig, userConfigPath, type ConfigSection, type ConfigSource, type ResolvedConfig } from '@agent-checkpoint/core';
import { EXIT_FAILURE, EXIT_OK } from '@agent-checkpoint/setup-kit';
import type { SetupContext } from './setup-context.ts';
import { contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';

/** The options of `config`, as commander parses them (commands/hook-cli.ts declares them). */
export interface ConfigOptions {
  readonly cwd?: string;
  readonly json?: boolean;
}

/** A configuration file that is there but ignored as a whole, with the loader's reasons. */
export interface IgnoredConfigFile {
  readonly path: string;
  readonly reasons: readonly string[];
}

/** A value's origin: `default`, `preset <id>`, `user-file <path>` or `project-file <path>`. */
export type Origin = ConfigSource;

const DEFAULT_SOURCE: ConfigSource = { kind: 'default', name: 'defaults' };

/** `agent-checkpoint-hook config`. */
export async function runConfigCommand(options: ConfigOptions, context: SetupContext): Promise<number> {
  const cwd = resolve(context.cwd, options.cwd ?? '.');
  const loaded = await loadConfig({ cwd, env: context.env, sections: contextCheckpointSections });
  const origins = valueOrigins(loaded.config, loaded.layers ?? [], loaded.sections ?? []);
  const untrusted = loaded.untrusted === undefined ? null : { path: loaded.untrusted.path, state: loaded.untrusted.state, ignoredKeys: loaded.untrusted.ignoredKeys };
  const ignoredFiles = ignoredConfigFiles(loaded, cwd, context.env);
  // The user asked what applies: a file of theirs that does not apply at all is a failure, not a note.
  const code = ignoredFiles.length === 0 ? EXIT_OK : EXIT_FAILURE;
  if (options.json === true) {
    const report = { projectRoot: loaded.projectRoot, sources: loaded.config.sources, config: loaded.config, origins: Object.fromEntries([...origins].map(([path, o]) => [path, describeOrigin(o)])), untrusted, ignoredFiles, diagnostics: loaded.diagnostics };
    await context.write(`${jsonForTerminal(JSON.stringify(report, null, 2))}\n`);
    return code;
  }
  const { style } = context;
  const lines = [`project ${forTerminal(loaded.projectRoot)}`, `layers (lowest first): ${loaded.config.sources.map((s) => forTerminal(describeOrigin(s))).join(', ')}`, ''];
  for (const [path, value] of leaves(loaded.config)) {
    if (path === 'sources') continue;
    const origin = origins.get(path) ?? DEFAULT_SOURCE;
    const shown = forTerminal(JSON.stringify(value));
    lines.push(`${path} = ${shown.length > 160 ? `${shown.slice(0, 157)}...` : shown}  ${origin.kind === 'default' ? style.dim('(default)') : style.cyan(`(${forTerminal(describeOrigin(origin))})`)}`);
  }
  if (untrusted !== null) {
    lines.push('', style.yellow(`ignored (${forTerminal(untrusted.path)} is ${untrusted.state === 'changed' ? 'changed since you trusted it' : 'not trusted'}): ${untrusted.ignoredKeys.join(', ')}`));
    lines.push(`  review the file, then: ${context.tool ?? 'agent-checkpoint-hook'} trust ${forTerminal(forShellArg(loaded.projectRoot))}`);
  }
  if (loaded.diagnostics.length > 0) {
    lines.push('', 'problems:');
    for (const d of loaded.diagnostics) lines.push(`  ${forTerminal(d)}`);
  }
  await context.write(`${lines.join('\n')}\n`);
  for (const file of ignoredFiles) {
    context.writeError(`agent-checkpoint: config: ${forTerminal(file.path)} is ignored as a whole: ${file.reasons.map((r) => forTerminal(r, { keepLines: false })).join('; ')}\n`);
  }
  return code;
}

/**
 * The configuration files that are there (or named by AGENT_CHECKPOINT_CONFIG) but did not become a
 * layer: unreadable, invalid, or a project file below the repository root. Each with the loader's
 * diagnostics about it (the reason), or a generic one.
 */
function ignoredConfigFiles(loaded: Awaited<ReturnType<typeof loadConfig>>, cwd: string, env: SetupContext['env']): IgnoredConfigFile[] {
  const applied = new Set((loaded.layers ?? []).map((layer) => layer.source.name));
  const user = userConfigPath(env, undefined);
  const candidates = [
    ...(user.explicit || statSync(user.path, { throwIfNoEntry: false }) !== undefined ? [user.path] : []),
    ...[join(loaded.projectRoot, PROJECT_CONFIG_FILE), join(cwd, PROJECT_CONFIG_FILE)].filter((path) => statSync(path, { throwIfNoEntry: false }) !== undefined),
  ];
  return [...new Set(candidates)]
    .filter((path) => !applied.has(path))
    .map((path) => {
      const reasons = loaded.diagnostics.filter((d) => d.startsWith(`${path}: `)).map((d) => d.slice(path.length + 2));
      return { path, reasons: reasons.length > 0 ? reasons : ['it could not be applied (see the problems above)'] };
    });
}

export function describeOrigin(source: ConfigSource): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'preset':
      return `preset ${source.name}${source.detected === true ? ' (detected)' : ''}`;
    case 'user-file':
      return `user file ${source.name}`;
    case 'project-file':
      return `project file ${source.name}`;
  }
}

/**
 * The layer that set each value: merge the layers one at a time and, for each leaf path, keep the
 * last layer after which its value changed (a value no layer changed is a default). Leaves are
 * scalars and lists, except that `categories`, `followUps` and `errorPatterns` are keyed by id.
 */
export function valueOrigins(
  config: ResolvedConfig,
  given: readonly { readonly config: unknown; readonly source: ConfigSource }[],
  sections: readonly ConfigSection[] = [],
): Map<string, ConfigSource> {
  const origins = new Map<string, ConfigSource>();
  // A file's `extends` applies its presets just before the file: a layer of its own here, so values
  // they set are not credited to the file.
  const layers = given.flatMap((layer) => {
    const ext = (layer.config as { extends?: string | string[] }).extends;
    const names = ext === undefined ? [] : Array.isArray(ext) ? ext : [ext];
    return names.length === 0 ? [layer] : [{ config: { extends: names }, source: { kind: 'preset', name: names.join(', ') } as ConfigSource }, layer];
  });
  let previous = new Map(leaves(resolveConfig([])).map(([path, value]) => [path, JSON.stringify(value)]));
  for (let i = 0; i < layers.length; i++) {
    const merged = resolveConfig(layers.slice(0, i + 1) as Parameters<typeof resolveConfig>[0], sections);
    const current = new Map(leaves(merged).map(([path, value]) => [path, JSON.stringify(value)]));
    for (const [path, text] of current) if (path !== 'sources' && previous.get(path) !== text) origins.set(path, layers[i]!.source);
    previous = current;
  }
  // A category records the layer whose definition won, which is more precise than the diff (a
  // preset may redefine a category to the same value).
  for (const category of config.categories) if (category.source !== undefined) origins.set(`categories.${category.id}`, category.source);
  return origins;
}

const KEYED_LISTS = new Set(['categories', 'followUps', 'errorPatterns']);

/** `[path, value]` for every leaf of a resolved configuration. */
export function leaves(value: unknown, path = ''): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object') return [[path, value]];
  if (Array.isArray(value)) {
    if (KEYED_LISTS.has(path)) return value.map((item: { id?: unknown; source?: unknown }) => {
      const { source: _source, ...rest } = item;
      return [`${path}.${String(item.id)}`, rest] as [string, unknown];
    });
    return [[path, value]];
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return [[path, value]];
  return entries.flatMap(([key, child]) => leaves(child, path === '' ? key : `${path}.${key}`));
}
