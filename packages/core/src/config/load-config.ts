import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveStateDir } from '../state/resolve-state-dir.ts';
import { configCacheKey, readCachedConfig, writeCachedConfig } from './config-cache.ts';
import { configCacheDir, findProjectRoot, PROJECT_CONFIG_FILE, userConfigPath } from './config-paths.ts';
import type { ConfigFile, ConfigSource, ResolvedConfig } from './config-schema.ts';
import { detectPresets } from './detect-presets.ts';
// Type only (erased): the module itself loads zod and is imported dynamically below.
import type { ParsedConfigJson } from './parse-config-file.ts';
import type { ConfigSection, ConfigSectionSource } from './config-section.ts';
import { PRIVILEGED_KEYS } from './config-privileged-keys.ts';
import { pickPresets, presetAncestors, PRESETS } from './presets/index.ts';
import { configDigest, readTrustStore, trustKeyFor, trustStateOf } from './project-config-trust.ts';
import { readConfigBytes } from './read-config-bytes.ts';
import { configProblems, resolveConfig, resolveConfigDetailed } from './resolve-config.ts';
import type { PrivilegedKey } from './privileged-key.ts';
import { stripPrivilegedKeys } from './strip-privileged-keys.ts';
import { requireLinearEngine } from '../engine/safe-pattern.ts';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** The session's working directory. */
  readonly cwd: string;
  /**
   * The directory holding `.agent-checkpoint.json` and the preset markers. Default: the nearest
   * ancestor of `cwd` containing `.git`, else `cwd`.
   */
  readonly projectRoot?: string;
  /** Home directory for the user-level file and the cache (default `os.homedir()`). */
  readonly homeDir?: string;
  /** Environment (default `process.env`): `XDG_CONFIG_HOME`, `XDG_CACHE_HOME`, `AGENT_CHECKPOINT_CONFIG`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Directory of the validated-config cache, or `false` to validate every time. Default
   * `$XDG_CACHE_HOME/agent-checkpoint/config` (`~/.cache/agent-checkpoint/config`).
   */
  readonly cacheDir?: string | false;
  /** The state directory holding the trust store (default {@link resolveStateDir} of `env` and `homeDir`). */
  readonly stateDir?: string;
  /**
   * Config sections other packages register (`config-section.ts`). Loaded only when a file sets one
   * of {@link ConfigSectionSource.keys}; without a source, such a key is an unknown key like any other.
   */
  readonly sections?: ConfigSectionSource;
}

/**
 * A project file whose privileged keys were ignored because the user has not trusted it (or it changed
 * since): for `doctor`, `explain` and the hook's stderr line (also in {@link LoadedConfig.diagnostics}).
 */
export interface UntrustedProjectConfig {
  /** The project file as found (`<root>/.agent-checkpoint.json`). */
  readonly path: string;
  /** Its real path, the trust store's key; undefined when it could not be established. */
  readonly realPath?: string;
  /** The ignored keys, as paths (`runTests.command`). */
  readonly ignoredKeys: readonly string[];
  /** `changed`: trusted once, edited since. */
  readonly state: 'untrusted' | 'changed';
  /** The one-line diagnostic. */
  readonly diagnostic: string;
}

/** Result of {@link loadConfig}. */
export interface LoadedConfig {
  readonly config: ResolvedConfig;
  /** One line per problem (unreadable or invalid file, unknown preset…). Never fatal. */
  readonly diagnostics: readonly string[];
  /** The directory the project file and preset markers were looked up in. */
  readonly projectRoot: string;
  /** Set when the project file's privileged keys were ignored (see {@link UntrustedProjectConfig}). */
  readonly untrusted?: UntrustedProjectConfig;
  /**
   * The layers merged, lowest priority first (detected presets, user file, project file; the
   * built-in defaults are implicit), for `agent-checkpoint-hook config` to tell where each value came
   * from. Absent when resolution failed and the defaults were used.
   */
  readonly layers?: readonly Layer[];
  /** The config sections loaded for these files (none unless a file set one of their keys). */
  readonly sections?: readonly ConfigSection[];
}

export type Layer = { readonly config: ConfigFile; readonly source: ConfigSource };

/**
 * Load the configuration that applies to a session: built-in defaults, then presets, then the
 * user-level file, then the project file (later layers win; merging and `extends` expansion are
 * {@link resolveConfig}'s).
 *
 * - **Project file**: `.agent-checkpoint.json` at the project root only (see
 *   {@link LoadConfigOptions.projectRoot}); there is no search through intermediate directories,
 *   because category globs are relative to the repository root and a file in a subdirectory would
 *   read as if it were scoped to it. A stray file in `cwd` below the root gets a diagnostic.
 * - **User file**: `$AGENT_CHECKPOINT_CONFIG`, else `$XDG_CONFIG_HOME/agent-checkpoint/config.json`,
 *   else `~/.config/agent-checkpoint/config.json`.
 * - Both accept JSON with comments and trailing commas and are validated against the schema. A file
 *   that cannot be read, does not parse or does not validate is ignored **as a whole** with one
 *   diagnostic per problem (`line:column` for syntax, `categories[2].include: …` for the schema): a
 *   half-applied file would be a silently wrong merge. An unknown preset name in `extends` is
 *   reported and skipped; the rest of the file applies.
 * - **Detection**: the presets whose `detect` markers exist at the project root are applied (sources
 *   say `detected`) before the files, unless a file sets `"detectPresets": false`. Named presets
 *   (`extends`) and custom categories add to them; they never switch detection off.
 * - **Trust**: the project file's privileged keys (commands, write paths, push) apply only when the
 *   user trusted that exact file; otherwise they are dropped with one diagnostic and
 *   {@link LoadedConfig.untrusted} says which. The user file is trusted.
 *
 * Cost: with no configuration file, neither zod nor jsonc-parser is loaded (a few `existsSync`
 * calls). A file that validated once is cached by content hash (see `config-cache.ts`), so the
 * validator is loaded again only when a file changes. Never throws: if resolution itself fails, the
 * built-in defaults are returned with a diagnostic.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const diagnostics: string[] = [];
  const env = options.env ?? process.env;
  let projectRoot = resolve(options.cwd);
  try {
    projectRoot = options.projectRoot === undefined ? findProjectRoot(options.cwd) : resolve(options.projectRoot);
    const cacheDir = options.cacheDir === false ? undefined : (options.cacheDir ?? configCacheDir(env, options.homeDir));

    const user = userConfigPath(env, options.homeDir);
    const projectPath = join(projectRoot, PROJECT_CONFIG_FILE);
    const sectionKeys = options.sections?.keys ?? [];
    const userRead = await readConfigFile(user.path, { mustExist: user.explicit, cacheDir, sectionKeys, diagnostics });
    const projectRead = await readConfigFile(projectPath, { mustExist: false, cacheDir, sectionKeys, diagnostics });
    // Sections are loaded only when a file sets one of their keys: the default path never evaluates them.
    const sections = await sectionsFor(options.sections, [userRead, projectRead], diagnostics);
    const privileged = privilegedKeysWith(sections);
    const userConfig = (await validateConfigFile(userRead, { cacheDir, sections, privileged, diagnostics }))?.config;
    const projectFile = await validateConfigFile(projectRead, { cacheDir, sections, privileged, diagnostics });
    const strayPath = join(resolve(options.cwd), PROJECT_CONFIG_FILE);
    if (strayPath !== projectPath && statSync(strayPath, { throwIfNoEntry: false }) !== undefined) {
      diagnostics.push(`${strayPath}: ignored; only ${projectPath} (the repository root) is read`);
    }

    let projectConfig = projectFile?.config;
    let untrusted: UntrustedProjectConfig | undefined;
    if (projectFile !== undefined) {
      const checked = checkTrust(projectPath, projectFile, options, env, privileged);
      projectConfig = checked.config;
      untrusted = checked.untrusted;
      diagnostics.push(...checked.diagnostics);
    }

    // Before anything compiles them: the project file's `/…/` patterns run on the linear-time engine.
    if (projectFile !== undefined) await requireLinearEngine(stringsIn(projectFile.config));

    const layers: Layer[] = [];
    if (detectsPresets(userConfig, projectConfig)) {
      // Keep the most specific detected presets (`node-pnpm` makes `node` redundant), and leave out
      // those a file names (or that a named one extends): they apply once, at the file's place.
      const named = namedPresets([userConfig, projectConfig]);
      for (const id of pickPresets(await detectPresets(projectRoot, Object.values(PRESETS))).filter((p) => !named.has(p))) {
        const preset = PRESETS[id];
        if (preset) layers.push({ config: preset.config, source: { kind: 'preset', name: id, detected: true } });
      }
    }
    if (userConfig) layers.push({ config: withKnownPresets(userConfig, user.path, diagnostics), source: { kind: 'user-file', name: user.path } });
    if (projectConfig) {
      layers.push({ config: withKnownPresets(projectConfig, projectPath, diagnostics), source: { kind: 'project-file', name: projectPath } });
    }
    const resolved = resolveConfigDetailed(layers, sections);
    const config = resolved.config;
    diagnostics.push(...resolved.diagnostics);
    for (const problem of fileProblems(config, [userConfig, projectConfig])) diagnostics.push(problem);
    return { config, diagnostics, projectRoot, layers, sections, ...(untrusted === undefined ? {} : { untrusted }) };
  } catch (error) {
    diagnostics.push(`configuration could not be resolved (${errorMessage(error)}); using the built-in defaults`);
    return { config: resolveConfig([]), diagnostics, projectRoot };
  }
}

/** A configuration file as read and validated. */
interface LoadedFile {
  readonly config: ConfigFile;
  /** The bytes that were parsed: the trust check hashes exactly these. */
  readonly bytes: Buffer;
  readonly realPath: string | undefined;
}

/**
 * The project file's configuration as it may apply: without its privileged keys unless the user
 * trusted this exact file here (the location as used and the content digest; see
 * `project-config-trust.ts`: a link to another repository's trusted file is untrusted). The trust
 * store is read only when the file sets a privileged key, so most turns never touch it.
 */
function checkTrust(
  path: string,
  file: LoadedFile,
  options: LoadConfigOptions,
  env: Readonly<Record<string, string | undefined>>,
  privileged: readonly PrivilegedKey[],
): { config: ConfigFile; untrusted?: UntrustedProjectConfig; diagnostics: string[] } {
  const { config, removed } = stripPrivilegedKeys(file.config, privileged);
  if (removed.length === 0) return { config: file.config, diagnostics: [] };
  const stateDir = options.stateDir ?? resolveStateDir({ env, ...(options.homeDir === undefined ? {} : { homeDir: options.homeDir }) });
  const store = readTrustStore(stateDir);
  // `realPath` undefined: the file changed while it was read.
  const state = file.realPath === undefined ? 'untrusted' : trustStateOf(store, trustKeyFor(path), configDigest(file.bytes));
  if (state === 'trusted') return { config: file.config, diagnostics: [] };
  const keys = [...new Set(removed.map((r) => r.key))];
  const why = state === 'changed' ? 'changed since it was trusted' : 'not trusted';
  const diagnostic = `${path}: ${why}; ignored: ${keys.join(', ')} (commands and write paths from a project file need trust): review it, then run \`agent-checkpoint-hook trust\``;
  return {
    config,
    untrusted: { path, ...(file.realPath === undefined ? {} : { realPath: file.realPath }), ignoredKeys: keys, state, diagnostic },
    diagnostics: [...store.diagnostics, diagnostic],
  };
}

/**
 * Whether detected presets apply: yes unless a file says `"detectPresets": false` (the project file's
 * setting wins over the user file's). A project file, a custom category or named presets never turn
 * detection off by themselves: a file that only adds one category keeps the detected presets.
 */
function detectsPresets(user: ConfigFile | undefined, project: ConfigFile | undefined): boolean {
  return project?.detectPresets ?? user?.detectPresets ?? true;
}

/** A file read (and parsed, or found in the cache), before validation. */
type ReadFile =
  | { readonly kind: 'cached'; readonly path: string; readonly config: ConfigFile; readonly bytes: Buffer; readonly realPath: string | undefined; readonly key: string | undefined }
  | { readonly kind: 'parsed'; readonly path: string; readonly value: unknown; readonly bytes: Buffer; readonly realPath: string | undefined; readonly key: string | undefined };

/**
 * Read and parse one file (JSON only; validation waits until the sections it needs are known).
 * Undefined when it does not exist or is unusable (then with diagnostics). Files seen valid before
 * come from the cache without loading the parser or the validator.
 */
async function readConfigFile(
  path: string,
  options: { mustExist: boolean; cacheDir: string | undefined; sectionKeys: readonly string[]; diagnostics: string[] },
): Promise<ReadFile | undefined> {
  const { diagnostics } = options;
  const read = readConfigBytes(path);
  switch (read.kind) {
    case 'missing':
      if (options.mustExist) diagnostics.push(`${path}: not found (named by AGENT_CHECKPOINT_CONFIG); ignored`);
      return undefined;
    case 'unusable':
      diagnostics.push(`${path}: ${read.problem}; ignored`);
      return undefined;
    case 'read':
      break;
  }
  const { bytes, realPath } = read;
  const key = options.cacheDir === undefined ? undefined : configCacheKey(bytes, options.sectionKeys);
  if (key !== undefined && options.cacheDir !== undefined) {
    const cached = readCachedConfig(options.cacheDir, key);
    if (cached) return { kind: 'cached', path, config: cached, bytes, realPath, key };
  }

  let parsed: ParsedConfigJson;
  try {
    const { parseConfigJson } = await import('./parse-config-file.ts');
    parsed = parseConfigJson(bytes.toString('utf8'));
  } catch (error) {
    // Only a broken install or bundle gets here (e.g. jsonc-parser's UMD entry bundled without
    // `mainFields: ['module', 'main']`); the other layers still apply.
    diagnostics.push(`${path}: the configuration parser could not be loaded (${errorMessage(error)}); file ignored`);
    return undefined;
  }
  if (!parsed.ok) {
    diagnostics.push(`${path}: invalid configuration, file ignored:`);
    for (const problem of parsed.problems) diagnostics.push(`${path}: ${problem}`);
    return undefined;
  }
  return { kind: 'parsed', path, value: parsed.value, bytes, realPath, key };
}

/** The sections the files need: loaded from `source` only when a file sets one of its keys. */
async function sectionsFor(
  source: ConfigSectionSource | undefined,
  files: readonly (ReadFile | undefined)[],
  diagnostics: string[],
): Promise<readonly ConfigSection[]> {
  if (source === undefined || source.keys.length === 0) return [];
  const present = new Set<string>();
  for (const file of files) {
    const value = file === undefined ? undefined : file.kind === 'cached' ? file.config : file.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    for (const key of source.keys) if (Object.hasOwn(value, key)) present.add(key);
  }
  if (present.size === 0) return [];
  try {
    return await source.load(present);
  } catch (error) {
    // The files are then validated without the sections: their keys are reported as unknown.
    diagnostics.push(`config sections for ${[...present].join(', ')} could not be loaded (${errorMessage(error)})`);
    return [];
  }
}

/** Core's privileged keys and the sections', without repeats (the generated list names known sections' too). */
function privilegedKeysWith(sections: readonly ConfigSection[]): readonly PrivilegedKey[] {
  if (sections.length === 0) return PRIVILEGED_KEYS;
  const seen = new Set(PRIVILEGED_KEYS.map((k) => k.path.join('\0')));
  const out = [...PRIVILEGED_KEYS];
  for (const key of sections.flatMap((s) => s.privilegedKeys)) {
    const id = key.path.join('\0');
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(key);
  }
  return out;
}

/**
 * Validate a read file against core's schema and `sections`. A cached entry is believed unless it
 * holds a privileged key of a section (we never cache one: it was planted); then the bytes are parsed
 * and validated again. Valid files without privileged keys are cached.
 */
async function validateConfigFile(
  file: ReadFile | undefined,
  options: { cacheDir: string | undefined; sections: readonly ConfigSection[]; privileged: readonly PrivilegedKey[]; diagnostics: string[] },
): Promise<LoadedFile | undefined> {
  if (file === undefined) return undefined;
  const { diagnostics } = options;
  let value: unknown;
  if (file.kind === 'cached') {
    if (options.privileged === PRIVILEGED_KEYS || stripPrivilegedKeys(file.config, options.privileged).removed.length === 0) {
      return { config: file.config, bytes: file.bytes, realPath: file.realPath };
    }
    value = undefined;
  } else value = file.value;
  let validated;
  try {
    const { parseConfigJson, validateConfigValue } = await import('./parse-config-file.ts');
    if (value === undefined) {
      const parsed = parseConfigJson(file.bytes.toString('utf8'));
      if (!parsed.ok) return undefined;
      value = parsed.value;
    }
    validated = validateConfigValue(value, options.sections);
  } catch (error) {
    diagnostics.push(`${file.path}: the configuration validator could not be loaded (${errorMessage(error)}); file ignored`);
    return undefined;
  }
  if (!validated.ok) {
    diagnostics.push(`${file.path}: invalid configuration, file ignored:`);
    for (const problem of validated.problems) diagnostics.push(`${file.path}: ${problem}`);
    return undefined;
  }
  if (file.key !== undefined && options.cacheDir !== undefined) writeCachedConfig(options.cacheDir, file.key, validated.config, options.privileged);
  return { config: validated.config, bytes: file.bytes, realPath: file.realPath };
}

/**
 * Problems the schema cannot see (an evidence regex that does not compile, evidence that is not a
 * single command), checked only for what the files define: built-in presets are tested, and compiling
 * all of their evidence would cost milliseconds at every turn end.
 */
function fileProblems(config: ResolvedConfig, files: readonly (ConfigFile | undefined)[]): string[] {
  const defined = files.filter((f): f is ConfigFile => f !== undefined);
  if (defined.length === 0) return [];
  const ids = (pick: (f: ConfigFile) => readonly { id: string }[] | undefined): Set<string> =>
    new Set(defined.flatMap((f) => (pick(f) ?? []).map((x) => x.id)));
  const categories = ids((f) => f.categories);
  const followUps = ids((f) => f.followUps);
  const errorPatterns = ids((f) => f.errorPatterns);
  return configProblems({
    ...config,
    categories: config.categories.filter((c) => categories.has(c.id)),
    followUps: config.followUps.filter((f) => followUps.has(f.id)),
    errorPatterns: config.errorPatterns.filter((p) => errorPatterns.has(p.id)),
    searchCommands: defined.some((f) => f.searchCommands !== undefined) ? config.searchCommands : [],
  });
}

/** Every string value in a parsed file, at any depth (the patterns among them, wherever a key puts them). */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, out);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsIn(item, out);
  return out;
}

/** The presets the files name in `extends`, with every preset those extend. */
function namedPresets(files: readonly (ConfigFile | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const file of files) {
    if (file === undefined) continue;
    for (const name of presetNames(file)) {
      out.add(name);
      for (const ancestor of presetAncestors(name)) out.add(ancestor);
    }
  }
  return out;
}

function presetNames(config: ConfigFile): string[] {
  const value = config.extends;
  return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
}

/** The config with unknown preset names removed from `extends`, each reported. */
function withKnownPresets(config: ConfigFile, path: string, diagnostics: string[]): ConfigFile {
  const names = presetNames(config);
  const unknown = names.filter((name) => !Object.hasOwn(PRESETS, name));
  if (unknown.length === 0) return config;
  const known = Object.keys(PRESETS).join(', ');
  for (const name of unknown) diagnostics.push(`${path}: extends: unknown preset "${name}" skipped (known: ${known})`);
  const kept = names.filter((name) => Object.hasOwn(PRESETS, name));
  const { extends: _dropped, ...rest } = config;
  return kept.length === 0 ? rest : { ...rest, extends: kept };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}
