import type { ConfigSection, ConfigSectionSource } from './config-section.ts';
import { PRIVILEGED_KEYS } from './config-privileged-keys.ts';
import { configDigest } from './project-config-trust.ts';
import { readConfigBytes } from './read-config-bytes.ts';
import { privilegedSettings, type PrivilegedSetting } from './strip-privileged-keys.ts';

/** What `agent-checkpoint-hook trust` needs to know of a file before recording trust in it. */
export type InspectedConfigFile =
  | { readonly kind: 'missing' }
  | { readonly kind: 'unusable'; readonly problem: string }
  | {
      readonly kind: 'read';
      /** Undefined when the path was swapped while it was read: then it cannot be trusted. */
      readonly realPath: string | undefined;
      /** SHA-256 of the bytes read: what the trust store records. */
      readonly sha256: string;
      /** The file's privileged settings, or why the file does not validate. */
      readonly parsed:
        | { readonly ok: true; readonly privileged: readonly PrivilegedSetting[] }
        | { readonly ok: false; readonly problems: readonly string[] };
    };

/**
 * Read a configuration file once, as the loader does (regular file, size cap, real path checked
 * against the descriptor), and report the digest of exactly those bytes with the privileged settings
 * parsed from them: what the user sees is what gets trusted. Loads the validator (zod) lazily.
 */
export async function inspectConfigFile(path: string, options: { readonly sections?: ConfigSectionSource } = {}): Promise<InspectedConfigFile> {
  const read = readConfigBytes(path);
  if (read.kind !== 'read') return read;
  const { parseConfigJson, validateConfigValue } = await import('./parse-config-file.ts');
  const json = parseConfigJson(read.bytes.toString('utf8'));
  // The sections the file sets a key of, as the loader registers them (their privileged keys too).
  let sections: readonly ConfigSection[] = [];
  if (json.ok && options.sections !== undefined && typeof json.value === 'object' && json.value !== null) {
    const present = new Set(options.sections.keys.filter((key) => Object.hasOwn(json.value as object, key)));
    if (present.size > 0) sections = await options.sections.load(present);
  }
  const parsed = json.ok ? validateConfigValue(json.value, sections) : json;
  const privileged = [...PRIVILEGED_KEYS, ...sections.flatMap((s) => s.privilegedKeys).filter((k) => !PRIVILEGED_KEYS.some((p) => p.path.join('.') === k.path.join('.')))];
  return {
    kind: 'read',
    realPath: read.realPath,
    sha256: configDigest(read.bytes),
    parsed: parsed.ok ? { ok: true, privileged: privilegedSettings(parsed.config, privileged) } : { ok: false, problems: parsed.problems },
  };
}
