import type {
  CategoryConfig,
  ConfigFile,
  ConfigSource,
  ErrorPatternConfig,
  FollowUpConfig,
  MessagesConfig,
  ResolvedCategory,
  ResolvedConfig,
  ResolvedErrorPattern,
  ResolvedFollowUp,
  ResolvedMessages,
} from './config-schema.ts';
import { DEFAULT_CONFIG, DEFAULT_SOURCE } from './default-config.ts';
import { DEFAULT_CATEGORY_PRECEDENCE, DEFAULT_FOLLOW_UP_PRECEDENCE, DEFAULT_GIT_TIMEOUT_MS, DEFAULT_HYGIENE, DEFAULT_LOOP_GUARD } from './setting-defaults.ts';
import { DEFAULT_TRANSCRIPT_MAX_BYTES } from '../transcript/transcript-max-bytes.ts';
import { PRESETS } from './presets/index.ts';
import { compileEvidence } from '../shell/match-evidence.ts';
import { compilePattern, regexForm } from '../engine/safe-pattern.ts';
import type { ConfigSection, SectionLayer } from './config-section.ts';

/** Thrown by {@link resolveConfig} for an unknown preset name or an `extends` cycle. */
export class ConfigResolutionError extends Error {
  override readonly name = 'ConfigResolutionError';
}

/** One configuration layer and where it came from. */
export interface ConfigLayer {
  readonly config: ConfigFile;
  readonly source: ConfigSource;
}


interface State {
  enabled?: boolean;
  categories: CategoryConfig[];
  /** Which layer defined each category id last. */
  categorySources: Map<string, ConfigSource>;
  docsPatterns: readonly string[];
  followUps: FollowUpConfig[];
  errorPatterns: ErrorPatternConfig[];
  searchCommands: readonly string[];
  hygiene: { editWithoutRead?: boolean; blastRadius?: number };
  planDrift?: { path?: string; slug?: string };
  messages: MessagesConfig;
  silentWhenAllClear?: boolean;
  silentWhenNoChanges?: boolean;
  loopGuard: { maxBlocksPerTurn?: number; minTurnSeconds?: number };
  transcriptMaxBytes?: number;
  gitTimeoutMs?: number;
  /** Per registered section (by id): each layer's values of the section's keys, lowest first. */
  sectionLayers: Map<string, SectionLayer[]>;
  sources: ConfigSource[];
}

/**
 * Merge configuration layers, lowest priority first, on top of the built-in defaults. Each layer's
 * `extends` presets are applied (recursively, in order) just before the layer itself.
 *
 * Merge rules (docs/heuristics.md, "Configuration merge rules"):
 * - scalars (`enabled`, `silentWhen*`, `transcriptMaxBytes`, `gitTimeoutMs`): the later layer wins;
 * - `categories`, `followUps`: by id — a later definition replaces the earlier one in place, new ids
 *   are appended (category order is the order of the "Changed:" summary);
 * - `disableCategories`: removes those ids from what is merged so far (a later layer may add them back);
 * - `errorPatterns`: by id, and a later layer's patterns are tried **before** earlier ones;
 * - `docsPatterns`, `searchCommands`: a layer that sets them replaces the whole list;
 * - `hygiene`, `loopGuard`, `planDrift`, `messages`: merged key by key.
 *
 * @throws ConfigResolutionError for an unknown preset or an `extends` cycle.
 */
export function resolveConfig(layers: readonly ConfigLayer[], sections: readonly ConfigSection[] = []): ResolvedConfig {
  return resolveConfigDetailed(layers, sections).config;
}

/**
 * {@link resolveConfig}, with the problems the registered sections' resolvers reported (thresholds
 * out of order, a path leaving the repository…): `loadConfig` adds them to its diagnostics.
 * Each section's value is `ResolvedConfig.sections[id]`; a section no layer sets is not resolved
 * (its accessor returns the section's defaults).
 *
 * @throws ConfigResolutionError for an unknown preset or an `extends` cycle.
 */
export function resolveConfigDetailed(
  layers: readonly ConfigLayer[],
  sections: readonly ConfigSection[] = [],
): { readonly config: ResolvedConfig; readonly diagnostics: readonly string[] } {
  const state: State = {
    categories: [],
    categorySources: new Map(),
    docsPatterns: [],
    followUps: [],
    errorPatterns: [],
    searchCommands: [],
    hygiene: {},
    messages: {},
    loopGuard: {},
    sectionLayers: new Map(),
    sources: [],
  };
  const apply = (config: ConfigFile, source: ConfigSource): void => {
    applyLayer(state, config, source, []);
    collectSectionLayers(state, config, sections);
  };
  apply(DEFAULT_CONFIG, DEFAULT_SOURCE);
  for (const layer of layers) apply(layer.config, layer.source);
  const diagnostics: string[] = [];
  const values: Record<string, unknown> = {};
  for (const section of sections) {
    const sectionLayers = state.sectionLayers.get(section.id);
    if (sectionLayers === undefined) continue;
    const resolved = section.resolve(sectionLayers, section.defaults);
    // An undefined value (an opt-in left off) is no entry: the accessor then gives the defaults.
    if (resolved.value !== undefined) values[section.id] = resolved.value;
    diagnostics.push(...(resolved.diagnostics ?? []));
  }
  return { config: { ...finish(state), sections: values }, diagnostics };
}

/** Record the values `config` sets for each section's keys (presets never set section keys). */
function collectSectionLayers(state: State, config: ConfigFile, sections: readonly ConfigSection[]): void {
  const raw = config as Readonly<Record<string, unknown>>;
  for (const section of sections) {
    const picked: Record<string, unknown> = {};
    let any = false;
    for (const key of Object.keys(section.schemas)) {
      if (Object.hasOwn(raw, key) && raw[key] !== undefined) {
        picked[key] = raw[key];
        any = true;
      }
    }
    if (!any) continue;
    const list = state.sectionLayers.get(section.id) ?? [];
    list.push(picked);
    state.sectionLayers.set(section.id, list);
  }
}

function extendsList(config: ConfigFile): string[] {
  const ext = config.extends;
  if (ext === undefined) return [];
  return Array.isArray(ext) ? [...ext] : [ext];
}

function applyLayer(state: State, config: ConfigFile, source: ConfigSource, chain: readonly string[]): void {
  for (const name of extendsList(config)) {
    const preset = PRESETS[name];
    if (!preset) {
      throw new ConfigResolutionError(
        `Unknown preset "${name}" in "extends" of ${describe(source)}. Known presets: ${Object.keys(PRESETS).join(', ')}.`,
      );
    }
    if (chain.includes(name)) {
      throw new ConfigResolutionError(`Preset cycle in "extends": ${[...chain, name].join(' → ')}.`);
    }
    const presetSource: ConfigSource = source.kind === 'preset' && source.detected ? { kind: 'preset', name, detected: true } : { kind: 'preset', name };
    applyLayer(state, preset.config, presetSource, [...chain, name]);
  }
  merge(state, config, source);
  const last = state.sources[state.sources.length - 1];
  if (!last || last.kind !== source.kind || last.name !== source.name) state.sources.push(source);
}

function describe(source: ConfigSource): string {
  return source.kind === 'default' ? 'the built-in defaults' : `${source.kind} ${source.name}`;
}

function mergeById<T extends { readonly id: string }>(current: readonly T[], incoming: readonly T[]): T[] {
  const out = [...current];
  for (const item of incoming) {
    const at = out.findIndex((x) => x.id === item.id);
    if (at === -1) out.push(item);
    else out[at] = item;
  }
  return out;
}

function merge(state: State, config: ConfigFile, source: ConfigSource): void {
  if (config.enabled !== undefined) state.enabled = config.enabled;
  if (config.categories) {
    state.categories = mergeById(state.categories, config.categories);
    for (const c of config.categories) state.categorySources.set(c.id, source);
  }
  if (config.disableCategories) {
    const off = new Set(config.disableCategories);
    state.categories = state.categories.filter((c) => !off.has(c.id));
  }
  if (config.docsPatterns) state.docsPatterns = [...config.docsPatterns];
  if (config.followUps) state.followUps = mergeById(state.followUps, config.followUps);
  if (config.errorPatterns) {
    const ids = new Set(config.errorPatterns.map((p) => p.id));
    state.errorPatterns = [...dedupeById(config.errorPatterns), ...state.errorPatterns.filter((p) => !ids.has(p.id))];
  }
  if (config.searchCommands) state.searchCommands = [...config.searchCommands];
  if (config.hygiene) state.hygiene = { ...state.hygiene, ...definedOnly(config.hygiene) };
  if (config.planDrift) state.planDrift = { ...state.planDrift, ...definedOnly(config.planDrift) };
  if (config.messages) state.messages = { ...state.messages, ...definedOnly(config.messages) };
  if (config.silentWhenAllClear !== undefined) state.silentWhenAllClear = config.silentWhenAllClear;
  if (config.silentWhenNoChanges !== undefined) state.silentWhenNoChanges = config.silentWhenNoChanges;
  if (config.loopGuard) state.loopGuard = { ...state.loopGuard, ...definedOnly(config.loopGuard) };
  if (config.transcriptMaxBytes !== undefined) state.transcriptMaxBytes = config.transcriptMaxBytes;
  if (config.gitTimeoutMs !== undefined) state.gitTimeoutMs = config.gitTimeoutMs;
}

/** Within one layer, a repeated id keeps its last definition at the first position. */
function dedupeById<T extends { readonly id: string }>(items: readonly T[]): T[] {
  return mergeById([], items);
}

type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

function definedOnly<T extends object>(obj: T): Defined<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Defined<T>;
}

function resolveCategory(c: CategoryConfig, source: ConfigSource | undefined): ResolvedCategory {
  return {
    id: c.id,
    label: c.label ?? c.id,
    include: [...c.include],
    exclude: [...(c.exclude ?? [])],
    action: c.action ?? '',
    evidence: [...(c.evidence ?? [])],
    evidenceAfterLastEdit: c.evidenceAfterLastEdit ?? true,
    precedence: c.precedence ?? DEFAULT_CATEGORY_PRECEDENCE,
    ...(c.verify ? { verify: { evidence: [...c.verify.evidence], action: c.verify.action } } : {}),
    onlyWhenAlone: c.onlyWhenAlone ?? false,
    triggersFollowUps: c.triggersFollowUps ?? true,
    ...(source === undefined ? {} : { source }),
  };
}

function resolveFollowUp(f: FollowUpConfig): ResolvedFollowUp {
  return {
    id: f.id,
    action: f.action,
    evidence: [...f.evidence],
    evidenceAfterLastEdit: f.evidenceAfterLastEdit ?? true,
    precedence: f.precedence ?? DEFAULT_FOLLOW_UP_PRECEDENCE,
    triggeredBy: [...(f.triggeredBy ?? ['*'])],
    except: [...(f.except ?? [])],
  };
}

function resolveErrorPattern(p: ErrorPatternConfig): ResolvedErrorPattern {
  return { id: p.id, match: p.match, message: p.message, commands: [...(p.commands ?? [])] };
}

function finish(state: State): ResolvedConfig {
  const m = state.messages;
  // The built-in layer defines every message; these fallbacks only guard against a broken default.
  const messages: ResolvedMessages = {
    prefix: m.prefix ?? '',
    header: m.header ?? '',
    changedLabel: m.changedLabel ?? 'Changed:',
    actionsHeader: m.actionsHeader ?? 'Required actions:',
    actionsFooter: [...(m.actionsFooter ?? [])],
    observationsHeader: m.observationsHeader ?? 'Observations:',
    reminder: m.reminder ?? '',
    capture: m.capture ?? '',
    escapeHatch: m.escapeHatch ?? '',
    allClear: m.allClear ?? '',
    noChanges: m.noChanges ?? '',
    generic: m.generic ?? '',
  };
  const planPath = state.planDrift?.path;
  const planSlug = state.planDrift?.slug;
  return {
    enabled: state.enabled ?? true,
    categories: state.categories.map((c) => resolveCategory(c, state.categorySources.get(c.id))),
    docsPatterns: [...state.docsPatterns],
    followUps: state.followUps.map(resolveFollowUp),
    errorPatterns: state.errorPatterns.map(resolveErrorPattern),
    searchCommands: [...state.searchCommands],
    hygiene: {
      editWithoutRead: state.hygiene.editWithoutRead ?? DEFAULT_HYGIENE.editWithoutRead,
      blastRadius: state.hygiene.blastRadius ?? DEFAULT_HYGIENE.blastRadius,
    },
    ...(planPath ? { planDrift: planSlug === undefined ? { path: planPath } : { path: planPath, slug: planSlug } } : {}),
    messages,
    silentWhenAllClear: state.silentWhenAllClear ?? true,
    silentWhenNoChanges: state.silentWhenNoChanges ?? true,
    loopGuard: {
      maxBlocksPerTurn: state.loopGuard.maxBlocksPerTurn ?? DEFAULT_LOOP_GUARD.maxBlocksPerTurn,
      minTurnSeconds: state.loopGuard.minTurnSeconds ?? DEFAULT_LOOP_GUARD.minTurnSeconds,
    },
    transcriptMaxBytes: state.transcriptMaxBytes ?? DEFAULT_TRANSCRIPT_MAX_BYTES,
    gitTimeoutMs: state.gitTimeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    sources: [...state.sources],
  };
}

/**
 * Problems in a resolved configuration that matching would silently ignore: evidence that is not a
 * single command, invalid regular expressions. For
 * `doctor` and load-time diagnostics; an empty list means none.
 */
export function configProblems(config: ResolvedConfig): string[] {
  const problems: string[] = [];
  const checkEvidence = (where: string, evidence: readonly string[]): void => {
    for (const e of evidence) {
      const compiled = compileEvidence(e);
      if (compiled.kind === 'invalid') problems.push(`${where}: evidence "${e}": ${compiled.reason}`);
    }
  };
  for (const c of config.categories) {
    checkEvidence(`category "${c.id}"`, c.evidence);
    if (c.verify) checkEvidence(`category "${c.id}" verify`, c.verify.evidence);
  }
  for (const f of config.followUps) {
    checkEvidence(`follow-up "${f.id}"`, f.evidence);
  }
  for (const p of config.errorPatterns) {
    checkEvidence(`error pattern "${p.id}" commands`, p.commands);
    if (regexForm(p.match) !== undefined) {
      const compiled = compilePattern(p.match);
      if (compiled.kind === 'invalid') problems.push(`error pattern "${p.id}": ${compiled.reason}`);
    }
  }
  checkEvidence('searchCommands', config.searchCommands);
  return problems;
}
