import { isAbsolute, relative, sep } from 'node:path';

/**
 * `real` relative to `realRoot` (both real paths, symlinks resolved) when it names a file of the work
 * tree: inside the root, not the root itself, and not in a `.git` directory (any case: macOS and
 * Windows file systems fold it). Undefined otherwise. A memory or plan file that is a link into
 * `.git/` (`CLAUDE.md -> .git/config`) would otherwise be read into a handoff, or rewritten and
 * committed by direct execution, as if it were the repository's own text.
 */
export function workTreeRelative(realRoot: string, real: string): string | undefined {
  const rel = relative(realRoot, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  if (rel.split(sep).some((part) => part.toLowerCase() === '.git')) return undefined;
  return rel;
}
