import { posix } from 'node:path';

/** Where tool-call paths are resolved: the repository root and the session's working directory. */
export interface PathBase {
  /** Absolute repository root; changed-file paths are relative to it. */
  readonly root: string;
  /** Absolute session cwd; relative tool-call paths are relative to it. */
  readonly cwd: string;
}

/**
 * Resolve a path written by the agent (absolute, `./x`, `../x`, `x`, relative to `cwd` and an optional
 * directory a command `cd`-ed into) to a repo-relative POSIX path. Undefined when it lies outside the
 * repository, is the root itself, or cannot be resolved (`~/x`, empty).
 *
 * Only whole path segments are interpreted (`posix.resolve`), never characters: `.pre-commit-config.yaml`
 * stays itself and `../x.py` leaves the repo (the original's `lstrip("./")` turned them into
 * `pre-commit-config.yaml` and `x.py`).
 */
export function toRepoPath(path: string, base: PathBase, dir?: string): string | undefined {
  const cacheKey = `${base.root}\0${base.cwd}\0${dir ?? ''}\0${path}`;
  const cached = repoPathCache.get(cacheKey);
  if (cached !== undefined) return cached === NONE ? undefined : cached;
  const result = toRepoPathUncached(path, base, dir);
  if (repoPathCache.size >= CACHE_LIMIT) repoPathCache.clear();
  repoPathCache.set(cacheKey, result ?? NONE);
  return result;
}

/** Resolution is pure and the same paths recur across calls and checks: memoize (bounded). */
const repoPathCache = new Map<string, string>();
const CACHE_LIMIT = 20_000;
const NONE = '\0none';

function toRepoPathUncached(path: string, base: PathBase, dir?: string): string | undefined {
  const abs = toAbsolute(path, base, dir);
  if (abs === undefined) return undefined;
  const root = stripPrivate(posix.normalize(base.root));
  const rel = posix.relative(root, abs);
  if (rel === '' || rel === '..' || rel.startsWith('../') || posix.isAbsolute(rel)) return undefined;
  return rel;
}

/**
 * A stable key for a file named in a tool call: its repo-relative path when inside the repository,
 * otherwise its absolute path. Used to compare reads with edits wherever the file lives.
 */
export function pathKey(path: string, base: PathBase, dir?: string): string | undefined {
  const rel = toRepoPath(path, base, dir);
  if (rel !== undefined) return rel;
  return toAbsolute(path, base, dir);
}

/** The absolute, normalized form of an agent-written path (undefined when it cannot be resolved). */
export function toAbsolute(path: string, base: PathBase, dir?: string): string | undefined {
  let p = path.trim();
  if (p === '' || p.startsWith('~') || p.includes('\0')) return undefined;
  if (p.startsWith('file://')) p = decodeFileUrl(p);
  p = p.replace(/\\/g, '/');
  const cwd = posix.isAbsolute(base.cwd) ? base.cwd : posix.join(base.root, base.cwd);
  const abs = posix.isAbsolute(p) ? posix.normalize(p) : posix.resolve(cwd, dir ?? '.', p);
  return stripPrivate(abs.length > 1 ? abs.replace(/\/+$/, '') : abs);
}

/** Join a repo-relative glob written relative to `dir` under `cwd` into a repo-relative glob. */
export function toRepoGlob(glob: string, base: PathBase, dir?: string): string | undefined {
  if (glob.startsWith('/')) {
    const root = stripPrivate(posix.normalize(base.root));
    const g = stripPrivate(glob);
    return g.startsWith(`${root}/`) ? g.slice(root.length + 1) : undefined;
  }
  const cwd = posix.isAbsolute(base.cwd) ? base.cwd : posix.join(base.root, base.cwd);
  const dirAbs = posix.resolve(cwd, dir ?? '.');
  const prefix = posix.relative(stripPrivate(posix.normalize(base.root)), stripPrivate(dirAbs));
  if (prefix === '..' || prefix.startsWith('../')) return undefined;
  const joined = posix.normalize(prefix === '' ? glob : `${prefix}/${glob}`);
  return joined === '..' || joined.startsWith('../') ? undefined : joined;
}

/** macOS reports `/private/var/…` and `/private/tmp/…` for `/var/…` and `/tmp/…`: compare them as one. */
function stripPrivate(p: string): string {
  return /^\/private\/(var|tmp)(\/|$)/.test(p) ? p.slice('/private'.length) : p;
}

function decodeFileUrl(url: string): string {
  try {
    return decodeURIComponent(url.slice('file://'.length));
  } catch {
    return url.slice('file://'.length);
  }
}
