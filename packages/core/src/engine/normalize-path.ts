import { posix } from 'node:path';
import { isWindowsCanonical, msysToCanonical, sameWindowsSegment, windowsAbsoluteToCanonical } from './windows-path.ts';

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
  const root = canonicalRoot(base.root);
  if (isWindowsCanonical(root)) return windowsRelative(root, abs);
  const rel = posix.relative(root, abs);
  if (rel === '' || rel === '..' || rel.startsWith('../') || posix.isAbsolute(rel)) return undefined;
  return rel;
}

/**
 * The part of `abs` below a Windows `root`, compared segment by segment without case (the file
 * system's rule); the segments below the root keep the case they were written in, which is the
 * case git reports for a file the agent named as it found it.
 */
function windowsRelative(root: string, abs: string): string | undefined {
  const rootSegments = root.split('/').filter((s) => s !== '');
  const segments = abs.split('/').filter((s) => s !== '');
  if (segments.length <= rootSegments.length) return undefined;
  for (let i = 0; i < rootSegments.length; i += 1) {
    if (!sameWindowsSegment(rootSegments[i] ?? '', segments[i] ?? '')) return undefined;
  }
  return segments.slice(rootSegments.length).join('/');
}

/** The repository root in the canonical form tool paths are compared in. */
function canonicalRoot(root: string): string {
  const windows = windowsAbsoluteToCanonical(root);
  return windows === undefined ? stripPrivate(posix.normalize(root)) : posix.normalize(windows);
}

/**
 * How paths of this repository compare: for a repository on a Windows drive or share, without case
 * (as NTFS and SMB compare them, so `SRC\\App.ts` and git's `src/app.ts` are one file); on POSIX,
 * exactly. The returned function gives the form to compare (a map key), never a path to show.
 */
export function pathComparer(root: string): (path: string) => string {
  return isWindowsCanonical(canonicalRoot(root)) ? (path) => path.toUpperCase() : (path) => path;
}

/**
 * True when an agent-written path is absolute on some platform (POSIX, a Windows drive or UNC
 * path): it names the same file whatever directory a command changed into.
 */
export function isAbsoluteAgentPath(path: string): boolean {
  return path.startsWith('/') || windowsAbsoluteToCanonical(path) !== undefined;
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

/**
 * The absolute, normalized form of an agent-written path (undefined when it cannot be resolved).
 * Windows drive and UNC paths (in the path, the cwd, the root or a cd-ed directory) take the
 * canonical form of {@link windowsAbsoluteToCanonical}; with a Windows root, Git Bash's `/c/…`
 * is read as drive C.
 */
export function toAbsolute(path: string, base: PathBase, dir?: string): string | undefined {
  let p = path.trim();
  if (p === '' || p.startsWith('~') || p.includes('\0')) return undefined;
  if (p.startsWith('file://')) p = decodeFileUrl(p);
  const root = canonicalRoot(base.root);
  const windowsRoot = isWindowsCanonical(root);
  p = canonicalAgentPath(p, windowsRoot);
  const cwdPath = canonicalAgentPath(base.cwd, windowsRoot);
  const cwd = posix.isAbsolute(cwdPath) ? cwdPath : posix.join(root, cwdPath);
  const dirPath = dir === undefined ? '.' : canonicalAgentPath(dir, windowsRoot);
  const abs = posix.isAbsolute(p) ? posix.normalize(p) : posix.resolve(cwd, dirPath, p);
  const trimmed = abs.length > 1 ? abs.replace(/\/+$/, '') : abs;
  return isWindowsCanonical(trimmed) ? trimmed : stripPrivate(trimmed);
}

/** Backslashes to slashes, Windows absolute paths (and, under a Windows root, MSYS ones) to canonical form. */
function canonicalAgentPath(p: string, windowsRoot: boolean): string {
  const windows = windowsAbsoluteToCanonical(p);
  if (windows !== undefined) return windows;
  const slashed = p.replace(/\\/g, '/');
  return (windowsRoot ? msysToCanonical(slashed) : undefined) ?? slashed;
}

/** Join a repo-relative glob written relative to `dir` under `cwd` into a repo-relative glob. */
export function toRepoGlob(glob: string, base: PathBase, dir?: string): string | undefined {
  const root = canonicalRoot(base.root);
  const windowsRoot = isWindowsCanonical(root);
  if (isAbsoluteAgentPath(glob)) {
    const g = windowsRoot ? posix.normalize(canonicalAgentPath(glob, true)) : stripPrivate(glob);
    if (windowsRoot) return windowsRelative(root, g.replace(/\/+$/, ''));
    return g.startsWith(`${root}/`) ? g.slice(root.length + 1) : undefined;
  }
  const dirAbs = toAbsolute('.', base, dir);
  if (dirAbs === undefined) return undefined;
  const prefix = windowsRoot ? (windowsRelative(root, dirAbs) ?? (sameWindowsPath(root, dirAbs) ? '' : '..')) : posix.relative(root, dirAbs);
  if (prefix === '..' || prefix.startsWith('../')) return undefined;
  const joined = posix.normalize(prefix === '' ? glob : `${prefix}/${glob}`);
  return joined === '..' || joined.startsWith('../') ? undefined : joined;
}

function sameWindowsPath(a: string, b: string): boolean {
  const x = a.split('/').filter((s) => s !== '');
  const y = b.split('/').filter((s) => s !== '');
  return x.length === y.length && x.every((s, i) => sameWindowsSegment(s, y[i] ?? ''));
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
