import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';

/** Environment variable that points the code cache somewhere else (tests, sandboxes). */
export const CACHE_DIR_ENV = 'AGENT_CHECKPOINT_CACHE_DIR';
/** `0`/`false`/`off` switches the code cache off: the bundle is then compiled from source every run. */
export const CODE_CACHE_ENV = 'AGENT_CHECKPOINT_CODE_CACHE';

/**
 * How much of the bundle had run when a cache was written. V8 puts into a code cache only the
 * functions compiled so far, so a cache made by an early pass (the escape hatch) lacks the checkpoint
 * path; a later, fuller run replaces it once.
 */
export type CodeCacheCoverage = 0 | 1 | 2;

/** A cache file's content, verified. */
export interface CodeCacheEntry {
  readonly coverage: CodeCacheCoverage;
  readonly data: Buffer;
}

// File layout: magic (4) · coverage (1) · sha256 of data (32) · data. The digest catches a torn or
// corrupted file (V8's own sanity check only compares versions, flags and the source length).
const MAGIC = Buffer.from('ACC1', 'latin1');
const HEADER = MAGIC.length + 1 + 32;
/** Code caches of this bundle are 0.3–2 MiB; anything far larger is not ours. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Where compiled-code caches live: `$AGENT_CHECKPOINT_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-checkpoint`,
 * else `~/.cache/agent-checkpoint`; `undefined` when the cache is switched off. Relative values are
 * ignored (a hook runs in the session's cwd; a relative path would scatter caches across repositories).
 */
export function resolveCodeCacheDir(env: Readonly<Record<string, string | undefined>>, home: () => string = homedir): string | undefined {
  const toggle = env[CODE_CACHE_ENV]?.trim().toLowerCase();
  if (toggle === '0' || toggle === 'false' || toggle === 'off' || toggle === 'no') return undefined;
  const explicit = env[CACHE_DIR_ENV];
  if (explicit !== undefined && explicit !== '' && isAbsolute(explicit)) return explicit;
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'agent-checkpoint');
  try {
    const dir = home();
    return dir === '' ? undefined : join(dir, '.cache', 'agent-checkpoint');
  } catch {
    return undefined;
  }
}

/**
 * The cache file for one build of the bundle on one runtime. V8 rejects a cache from another V8
 * version or flag set by itself, but it cannot tell two builds of the same length apart — the build id
 * (a digest of the bundle, fixed at build time) does.
 */
export function codeCacheFileName(buildId: string, runtime: { readonly version: string; readonly arch: string; readonly v8: string }): string {
  const key = createHash('sha256').update(`${buildId}\0${runtime.version}\0${runtime.arch}\0${runtime.v8}`).digest('hex').slice(0, 24);
  return `hook-${key}.v8cache`;
}

/**
 * A directory we may trust with compiled code: a real directory (not a symlink) owned by this user,
 * writable by nobody else. Anyone who can write a code cache can run code in the hook.
 */
export function isTrustedCacheDir(dir: string): boolean {
  try {
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return false;
    return process.platform === 'win32' || (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * Read and verify a cache file. `undefined` when it is missing, not a regular file of ours, or fails
 * its digest. Opened non-blocking: a FIFO planted at the path must not wedge the hook.
 */
export function readCodeCache(file: string): CodeCacheEntry | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size <= HEADER || stat.size > MAX_FILE_BYTES) return undefined;
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return undefined;
    const buffer = Buffer.allocUnsafe(stat.size);
    let offset = 0;
    while (offset < buffer.length) {
      const read = readSync(fd, buffer, offset, buffer.length - offset, offset);
      if (read === 0) return undefined;
      offset += read;
    }
    if (!buffer.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const coverage = buffer[MAGIC.length];
    if (coverage !== 0 && coverage !== 1 && coverage !== 2) return undefined;
    const data = buffer.subarray(HEADER);
    const digest = createHash('sha256').update(data).digest();
    if (!digest.equals(buffer.subarray(MAGIC.length + 1, HEADER))) return undefined;
    return { coverage, data };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Write a cache file atomically (temp file + rename, 0600, in a 0700 directory it creates), so
 * concurrent hooks never read a torn file. Returns whether it was written; failures are not errors
 * (the next run compiles from source, as without a cache).
 */
export function writeCodeCache(dir: string, file: string, entry: CodeCacheEntry): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isTrustedCacheDir(dir)) return false;
    const header = Buffer.alloc(HEADER);
    MAGIC.copy(header, 0);
    header[MAGIC.length] = entry.coverage;
    createHash('sha256').update(entry.data).digest().copy(header, MAGIC.length + 1);
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      writeFileSync(temp, Buffer.concat([header, entry.data]), { mode: 0o600, flag: 'wx' });
      renameSync(temp, file);
    } catch (error) {
      try {
        unlinkSync(temp);
      } catch {
        // Never created.
      }
      throw error;
    }
    pruneCodeCaches(dir, basename(file));
    return true;
  } catch {
    return false;
  }
}

/** Caches of other builds or Node versions unused for this long are deleted when a new one is written. */
export const CODE_CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Temp files older than this are leftovers of a process killed mid-write. */
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * Keep the cache directory from growing with every upgrade: delete our own cache files (and temp
 * leftovers) that were last written long ago. Runs only when a cache is written — once per build and
 * Node version — and only touches names this module creates. A cache still in use by another Node
 * version that gets deleted is simply written again on that version's next run.
 */
export function pruneCodeCaches(dir: string, keep: string, now: number = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === keep || !name.startsWith('hook-')) continue;
    const maxAge = name.endsWith('.v8cache') ? CODE_CACHE_MAX_AGE_MS : name.endsWith('.tmp') ? TEMP_MAX_AGE_MS : undefined;
    if (maxAge === undefined) continue;
    try {
      const stat = lstatSync(join(dir, name));
      if (stat.isFile() && now - stat.mtimeMs > maxAge) unlinkSync(join(dir, name));
    } catch {
      // Gone already, or not ours to delete.
    }
  }
}
