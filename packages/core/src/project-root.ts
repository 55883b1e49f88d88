import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The directory whose `.agent-checkpoint.json` applies to `cwd`: the nearest ancestor (or `cwd`
 * itself) that contains `.git` (a directory, or the file of a linked worktree or submodule), else
 * `cwd` when no ancestor is a repository. Only existence checks, no git process: configuration must
 * be known before git runs, because it holds git's time limit. Its own module (not config/) because
 * the hook's first phase needs it for the per-project off switch (`hot-path.ts`).
 */
export function findProjectRoot(cwd: string): string {
  const start = resolve(cwd);
  for (let dir = start; ; ) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}
