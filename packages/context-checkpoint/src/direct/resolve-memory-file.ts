import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { workTreeRelative } from '../handoff/work-tree-path.ts';

/** Where the memory file really is. */
export interface MemoryFileLocation {
  /** The repository's real path: {@link repoPath} is written under it (see `fs-safe`). */
  readonly root: string;
  /** Absolute path to write (a symlink's target). */
  readonly realPath: string;
  /** Repo-relative POSIX path of the real file: what git tracks and what gets committed. */
  readonly repoPath: string;
  /** The configured path, as given. */
  readonly configuredPath: string;
  readonly exists: boolean;
}

/**
 * Resolve the memory file under `root`. A symlink (a common setup is `AGENTS.md -> CLAUDE.md`) is
 * followed, so the target is updated and the link stays a link; the target must exist, be a regular
 * file and lie inside the work tree (inside the repository and outside `.git/`, by real path). A
 * directory is refused.
 *
 * @returns the location, or an error message.
 */
export async function resolveMemoryFile(root: string, configuredPath: string): Promise<MemoryFileLocation | { readonly error: string }> {
  const realRoot = await realpath(root);
  const abs = join(realRoot, configuredPath);
  if (isOutside(relative(realRoot, abs))) return { error: `${configuredPath} is outside the repository` };
  if (workTreeRelative(realRoot, abs) === undefined) return { error: `${configuredPath} is inside .git/, not a file of the work tree` };
  let info;
  try {
    info = await lstat(abs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { root: realRoot, realPath: abs, repoPath: toPosix(relative(realRoot, abs)), configuredPath, exists: false };
    }
    return { error: `${configuredPath}: ${(error as Error).message}` };
  }
  let real = abs;
  if (info.isSymbolicLink()) {
    try {
      real = await realpath(abs);
    } catch {
      return { error: `${configuredPath} is a symlink to a missing file` };
    }
    const rel = relative(realRoot, real);
    if (isOutside(rel)) {
      return { error: `${configuredPath} points outside the repository (${real})` };
    }
    // Inside the root is not enough: a link into .git/ would have the hook rewrite (and commit) git's
    // own files — its config, its hooks.
    if (workTreeRelative(realRoot, real) === undefined) return { error: `${configuredPath} points into .git/ (${real}), not to a file of the work tree` };
    info = await lstat(real);
  }
  if (!info.isFile()) return { error: `${configuredPath} is not a regular file` };
  return { root: realRoot, realPath: real, repoPath: toPosix(relative(realRoot, real)), configuredPath, exists: true };
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

/** `..`, `../x`, absolute, or the root itself: not a file inside the repository. */
function isOutside(rel: string): boolean {
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}
