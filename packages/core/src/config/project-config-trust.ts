import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { SymlinkRefusedError } from '../state/read-regular-file.ts';
import { ensurePrivateDir, readSmallFileSync, writePrivateFileAtomic } from '../state/state-files.ts';

/**
 * The user's trust in project configuration files — the direnv / mise model. A project file
 * (`.agent-checkpoint.json`) is written by whoever published the repository or by the agent during the
 * turn, and the hook runs as the user outside the agent's sandbox; so the file's privileged keys
 * (commands, write paths, push: see `KeyTrust` in config-schema.ts) apply only after the user ran
 * `agent-checkpoint-hook trust` on that exact file. A changed file needs trusting again.
 *
 * Store: `<state dir>/trust/project-configs.json`, `{ "version": 1, "files": { "<key>": { "sha256",
 * "trustedAt" } } }`. The key is the location as used ({@link trustKeyFor}): the real path of the
 * directory the file is read for (the repository root) joined with the file's own name, *not*
 * resolved — so a second repository whose `.agent-checkpoint.json` is a link to a trusted repository's
 * file is untrusted there, though its bytes are the same. The entry holds the SHA-256 of the bytes
 * that were read: the loader hashes the bytes it actually parsed, so a file swapped or edited between
 * `trust` and the turn end (or a link retargeted) is never taken for the trusted one. For a plain
 * file the key equals its real path, so entries written before issue 23 keep applying.
 */

/** One trusted file. */
export interface TrustEntry {
  /** SHA-256 (hex) of the file's bytes when it was trusted. */
  readonly sha256: string;
  /** ISO time of the `trust` command. */
  readonly trustedAt: string;
}

/** The store's content. A store that cannot be read is empty, with a diagnostic. */
export interface TrustStore {
  readonly files: Readonly<Record<string, TrustEntry>>;
  readonly diagnostics: readonly string[];
}

/** `<state dir>/trust/project-configs.json`. */
export function trustStorePath(stateDir: string): string {
  return join(stateDir, 'trust', 'project-configs.json');
}

/**
 * The trust store's key of the config file at `configPath`: the real path of its directory (the same
 * repository reached through a linked directory is the same place) and its own name as used (a link
 * named `.agent-checkpoint.json` is not the file it points to). A directory that cannot be resolved
 * is taken as spelled.
 */
export function trustKeyFor(configPath: string): string {
  const absolute = resolve(configPath);
  let dir = dirname(absolute);
  try {
    dir = realpathSync(dir);
  } catch {
    // Missing or unreadable: the spelled path (it matches no entry recorded for a real directory).
  }
  return join(dir, basename(absolute));
}

/** SHA-256 (hex) of a file's bytes, as recorded and compared. */
export function configDigest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Read the store (synchronous: a few hundred bytes, read only when a project file sets privileged keys). */
export function readTrustStore(stateDir: string): TrustStore {
  const path = trustStorePath(stateDir);
  let text: string | undefined;
  try {
    text = readSmallFileSync(path);
  } catch (error) {
    return { files: {}, diagnostics: [`${path}: cannot be read (${errorText(error)}); no project file is trusted`] };
  }
  if (text === undefined) return { files: {}, diagnostics: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { files: {}, diagnostics: [`${path}: not valid JSON; no project file is trusted`] };
  }
  const files: Record<string, TrustEntry> = {};
  const raw = isRecord(value) && isRecord(value['files']) ? value['files'] : undefined;
  if (raw === undefined) return { files, diagnostics: [`${path}: unexpected content; no project file is trusted`] };
  for (const [file, entry] of Object.entries(raw)) {
    if (isRecord(entry) && typeof entry['sha256'] === 'string' && /^[0-9a-f]{64}$/.test(entry['sha256'])) {
      files[file] = { sha256: entry['sha256'], trustedAt: typeof entry['trustedAt'] === 'string' ? entry['trustedAt'] : '' };
    }
  }
  return { files, diagnostics: [] };
}

/** Whether the file at `key` ({@link trustKeyFor}) with content digest `sha256` is trusted. */
export function trustStateOf(store: TrustStore, key: string, sha256: string): 'trusted' | 'changed' | 'untrusted' {
  const entry = Object.hasOwn(store.files, key) ? store.files[key] : undefined;
  if (entry === undefined) return 'untrusted';
  return entry.sha256 === sha256 ? 'trusted' : 'changed';
}

/** Record trust in the file at `key` ({@link trustKeyFor}) whose bytes hash to `sha256` (replaces an older entry). */
export async function recordTrust(stateDir: string, key: string, sha256: string, now: Date = new Date()): Promise<void> {
  const store = readTrustStore(stateDir);
  if (store.diagnostics.length > 0) throw new Error(store.diagnostics.join('; '));
  await writeStore(stateDir, { ...store.files, [key]: { sha256, trustedAt: now.toISOString() } });
}

/** Forget the file at `key` ({@link trustKeyFor}). False when it was not trusted. */
export async function revokeTrust(stateDir: string, key: string): Promise<boolean> {
  const store = readTrustStore(stateDir);
  if (store.diagnostics.length > 0) throw new Error(store.diagnostics.join('; '));
  if (!Object.hasOwn(store.files, key)) return false;
  const { [key]: _removed, ...rest } = store.files;
  await writeStore(stateDir, rest);
  return true;
}

async function writeStore(stateDir: string, files: Readonly<Record<string, TrustEntry>>): Promise<void> {
  const path = trustStorePath(stateDir);
  await ensurePrivateDir(stateDir, 'trust');
  const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
  await writePrivateFileAtomic(stateDir, path, `${JSON.stringify({ version: 1, files: sorted }, null, 2)}\n`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorText(error: unknown): string {
  if (error instanceof SymlinkRefusedError) return 'a symlink, not followed';
  return error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
}
