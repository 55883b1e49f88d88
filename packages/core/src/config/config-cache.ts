import { createHash } from 'node:crypto';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { privateDirProblem, writeFileSafelySync } from '../fs-safe/safe-write.ts';
import { readRegularFileSync } from '../state/read-regular-file.ts';
import type { ConfigFile } from './config-schema.ts';
import { CONFIG_SCHEMA_FINGERPRINT } from './config-schema-fingerprint.ts';
import { PRIVILEGED_KEYS } from './config-privileged-keys.ts';
import type { PrivilegedKey } from './privileged-key.ts';
import { privilegedSettings } from './strip-privileged-keys.ts';

/**
 * A cache of configuration files that already passed validation, so the hook does not load zod
 * (~40–60 ms of module loading, measured) at every turn end once a project has a config file.
 *
 * The key is a SHA-256 of the schema fingerprint and the file's exact bytes: editing the file, or
 * upgrading to a version whose schema differs, misses the cache and validates again. Only valid files
 * are cached. Entries are tiny JSON files; the cache can be deleted at any time. Every function here
 * swallows I/O errors: a cache problem only costs speed.
 *
 * **The cache cannot grant anything.** Whoever can write the cache directory (the agent, in a
 * permissive sandbox: it runs as the user) could plant an entry for the key of any file — the
 * user's, or a project file the user trusted — so an entry is never believed about privileged keys
 * (commands, write paths, push; see `config-privileged-keys.ts`):
 * - a file whose validated config sets a privileged key is never cached (it is validated at every
 *   load, from its own bytes — the trust check hashes those same bytes);
 * - an entry that holds a privileged key was not written by us: it is ignored (a miss);
 * - `__proto__` members are dropped while parsing, so no key can hide in a prototype.
 * The directory is used only when it is private (owned by the user, not writable by others, the
 * launcher code cache's rule), and entries are read with O_NOFOLLOW as regular files of at most
 * {@link MAX_ENTRY_BYTES}. What a planted entry can still do is what an untrusted project file can:
 * choose categories, globs, evidence patterns and message texts.
 */

/** Most entries kept; the oldest are removed when a new one is written. */
const MAX_ENTRIES = 32;
/** A validated configuration file is at most 1 MiB of text; its cached JSON is smaller still. */
const MAX_ENTRY_BYTES = 1024 * 1024;

/**
 * The cache key of a file's bytes under the current schema and the registered config sections'
 * keys (`ConfigSectionSource.keys`): the same bytes validated with other sections registered are
 * another entry. The generated fingerprint covers the known sections' schemas (the generator
 * imports them).
 */
export function configCacheKey(bytes: Uint8Array | string, sectionKeys: readonly string[] = []): string {
  const hash = createHash('sha256').update(CONFIG_SCHEMA_FINGERPRINT).update('\0');
  if (sectionKeys.length > 0) hash.update(`sections:${[...sectionKeys].sort().join(',')}`).update('\0');
  return hash.update(bytes).digest('hex');
}

/** Cache directories found private by this process (the check walks every ancestor). */
const privateDirs = new Set<string>();

/** Whether `cacheDir` exists and is private; memoized when it is. */
function isPrivateCacheDir(cacheDir: string): boolean {
  if (privateDirs.has(cacheDir)) return true;
  try {
    if (privateDirProblem(cacheDir) !== undefined) return false;
  } catch {
    return false; // Missing, or an ancestor cannot be examined.
  }
  privateDirs.add(cacheDir);
  return true;
}

/** The validated config cached for `key`, or undefined (missing, unusable, or not believed). */
export function readCachedConfig(cacheDir: string, key: string, privileged: readonly PrivilegedKey[] = PRIVILEGED_KEYS): ConfigFile | undefined {
  try {
    if (!isPrivateCacheDir(cacheDir)) return undefined;
    const read = readRegularFileSync(join(cacheDir, `${key}.json`), MAX_ENTRY_BYTES);
    if (read === undefined) return undefined;
    const value: unknown = JSON.parse(read.text, (name, member: unknown) => (name === '__proto__' ? undefined : member));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    // We never write privileged keys: such an entry was planted.
    if (privilegedSettings(value as ConfigFile, privileged).length > 0) return undefined;
    return value as ConfigFile;
  } catch {
    return undefined;
  }
}

/**
 * Remember that the bytes with `key` validated to `config`. A config that sets a privileged key is not
 * cached (see above): it costs that file a validation at every load.
 */
export function writeCachedConfig(cacheDir: string, key: string, config: ConfigFile, privileged: readonly PrivilegedKey[] = PRIVILEGED_KEYS): void {
  if (privilegedSettings(config, privileged).length > 0) return;
  try {
    // A private directory, temp file + rename, never through a planted link (see fs-safe).
    writeFileSafelySync(cacheDir, `${key}.json`, JSON.stringify(config), { rootKind: 'private', mode: 0o600 });
    pruneCache(cacheDir, `${key}.json`);
  } catch {
    // Read-only home, full disk, a directory others can write…: validation simply runs again next time.
  }
}

function pruneCache(cacheDir: string, keep: string): void {
  const entries = readdirSync(cacheDir).filter((name) => name.endsWith('.json') && name !== keep);
  if (entries.length < MAX_ENTRIES) return;
  const aged = entries
    .map((name) => {
      try {
        return { name, mtimeMs: statSync(join(cacheDir, name)).mtimeMs };
      } catch {
        return { name, mtimeMs: 0 };
      }
    })
    .sort((a, b) => a.mtimeMs - b.mtimeMs);
  for (const { name } of aged.slice(0, entries.length - MAX_ENTRIES + 1)) {
    try {
      unlinkSync(join(cacheDir, name));
    } catch {
      /* removed concurrently */
    }
  }
}
