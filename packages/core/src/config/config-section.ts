import type { z } from 'zod';
import type { ResolvedConfig } from './config-schema.ts';
import type { PrivilegedKey } from './privileged-key.ts';

/**
 * A configuration section a package registers with core's loader: top-level keys of the file that
 * core's own schema does not know (`context`, `runTests`…), with their schema, trust classification,
 * defaults and resolver. Core validates, trust-checks and merges nothing of its meaning: it hands each
 * layer's raw values (already validated against {@link schemas}) to {@link resolve} and stores the
 * result in `ResolvedConfig.sections[id]`, which the package reads back with {@link sectionValue}.
 *
 * Build one with `defineConfigSection` (`define-config-section.ts`), which derives
 * {@link privilegedKeys} from the schemas' classification so it is written once.
 */
export interface ConfigSection<Value = unknown> {
  /** Slot in `ResolvedConfig.sections`; stable (it names the section in diagnostics). */
  readonly id: string;
  /**
   * The top-level keys this section claims, each with the strict, classified (`classifyKeys`) zod
   * object that validates it. A key claimed by core or by another registered section is a
   * programming error (`ConfigSectionError`).
   */
  readonly schemas: Readonly<Record<string, z.ZodObject>>;
  /** Keys a project file may set only once trusted, paths from the file's root, each with why. */
  readonly privilegedKeys: readonly PrivilegedKey[];
  /** The value when no layer sets any of the section's keys: the ONE place defaults are defined. */
  readonly defaults: Value;
  /**
   * Merge the layers (lowest priority first; each holds only this section's keys that the layer set)
   * onto `defaults`. Pure; problems the schema cannot express become `diagnostics`, never a throw.
   */
  resolve(layers: readonly SectionLayer[], defaults: Value): SectionResolution<Value>;
}

/** One layer's values of a section's keys (validated, trust-checked). */
export type SectionLayer = Readonly<Record<string, unknown>>;

/** Result of {@link ConfigSection.resolve}. */
export interface SectionResolution<Value> {
  readonly value: Value;
  readonly diagnostics?: readonly string[];
}

/**
 * Where the loader gets sections from, lazily: {@link keys} is static (known without evaluating the
 * owning package), and {@link load} is called only when a configuration layer sets one of them, with
 * the keys present. So a repository without such keys never evaluates the package (nor zod for it).
 */
export interface ConfigSectionSource {
  /** Every top-level key the source's sections may claim. Part of the validated-config cache key. */
  readonly keys: readonly string[];
  load(present: ReadonlySet<string>): Promise<readonly ConfigSection[]>;
}

/** A source over sections already in hand (tests, build scripts). */
export function configSectionSource(sections: readonly ConfigSection[]): ConfigSectionSource {
  return {
    keys: sections.flatMap((s) => Object.keys(s.schemas)),
    load: async (present) => sections.filter((s) => Object.keys(s.schemas).some((k) => present.has(k))),
  };
}

/**
 * The section's resolved value in `config`, or its defaults when no layer set it (then the section
 * was never loaded nor resolved). Typed by the section: the owning package's accessor.
 */
export function sectionValue<Value>(
  config: Pick<ResolvedConfig, 'sections'>,
  section: Pick<ConfigSection<Value>, 'id' | 'defaults'>,
): Value {
  const value = config.sections?.[section.id];
  return value === undefined ? section.defaults : (value as Value);
}

/** Thrown for a section that claims a key already claimed (by core or another section). */
export class ConfigSectionError extends Error {
  override readonly name = 'ConfigSectionError';
}
