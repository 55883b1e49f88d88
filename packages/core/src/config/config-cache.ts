import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { writeFileSafelySync } from '../fs-safe/safe-write.ts';
import { join } from 'node:path';
import type { ConfigFile } from './config-schema.ts';
import { CONFIG_SCHEMA_FINGERPRINT } from './config-schema-fingerprint.ts';

/**
 * A cache of configuration files that already passed validation, so the hook does not load zod
 * (~40–60 ms of module loading, measured) at every turn end once a project has a config file.
 *
 * The key is a SHA-256 of the schema fingerprint and the file's exact text: editing the file, or
 * upgrading to a version whose schema differs, misses the cache and validates again. Only valid files
 * are cached, so a cached entry is always a {@link ConfigFile}. Entries are tiny JSON files; the cache
 * can be deleted at any time. Every function here swallows I/O errors: a cache problem only costs
 * speed.
 */

/** Most entries kept; the oldest are removed when a new one is written. */
const MAX_ENTRIES = 32;

/** The cache key of a file's text under the current schema. */
export function configCacheKey(text: string): string {
  return createHash('sha256').update(CONFIG_SCHEMA_FINGERPRINT).update('\0').update(text).digest('hex');
}

/** The validated config cached for `key`, or undefined. */
export function readCachedConfig(cacheDir: string, key: string): ConfigFile | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(join(cacheDir, `${key}.json`), 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ConfigFile) : undefined;
  } catch {
    return undefined;
  }
}

/** Remember that the text with `key` validated to `config`. */
export function writeCachedConfig(cacheDir: string, key: string, config: ConfigFile): void {
  try {
    // A private directory, temp file + rename, never through a planted link (see fs-safe).
    writeFileSafelySync(cacheDir, `${key}.json`, JSON.stringify(config), { rootKind: 'private', mode: 0o600 });
    pruneCache(cacheDir, `${key}.json`);
  } catch {
    // Read-only home, full disk…: validation simply runs again next time.
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
