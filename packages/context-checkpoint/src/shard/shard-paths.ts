import { lstatSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { AGENT_CHECKPOINT_DIR } from '../handoff/agent-checkpoint-dir.ts';
import { slugify } from './slugify.ts';

/** Where shard directories go unless configured: `.agent-checkpoint/shards/<plan slug>`. */
export const DEFAULT_SHARDS_DIR = `${AGENT_CHECKPOINT_DIR}/shards`;

/** A configured shard directory was refused (absolute, leaving the project, a symlink on the way…). */
export class ShardPathError extends Error {
  override readonly name = 'ShardPathError';
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`shard directory ${JSON.stringify(path)}: ${reason}`);
    this.path = path;
  }
}

/** The plan's slug: its file name without the extension (`docs/PLAN.md` → `plan`). */
export function planSlug(planPath: string): string {
  const base = planPath.split(/[\\/]/).pop() ?? '';
  return slugify(base.replace(/\.[^.]*$/, ''), 'plan');
}

/**
 * The project-relative shard directory for a plan: `<dir>/<plan slug>`, `dir` defaulting to
 * {@link DEFAULT_SHARDS_DIR}. `dir` comes from configuration in the working tree, so it is untrusted:
 * an absolute path, a `..` component, a NUL byte or an empty value is refused.
 *
 * @throws ShardPathError as above.
 */
export function shardDirFor(planPath: string, dir: string = DEFAULT_SHARDS_DIR): string {
  return join(checkRelativeDir(dir), planSlug(planPath));
}

/** `dir` normalized, or {@link ShardPathError} when it is absolute, leaves the project or is empty. */
export function checkRelativeDir(dir: string): string {
  if (dir.includes('\0')) throw new ShardPathError(dir.replaceAll('\0', '\\0'), 'contains a NUL byte');
  if (dir.trim() === '') throw new ShardPathError(dir, 'is empty');
  if (isAbsolute(dir) || /^[A-Za-z]:[\\/]/.test(dir) || dir.startsWith('\\')) throw new ShardPathError(dir, 'is absolute; give a path relative to the project');
  const parts = normalize(dir).split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new ShardPathError(dir, 'leads outside the project');
  if (parts.length === 0) throw new ShardPathError(dir, 'names the project root itself');
  return parts.join('/');
}

/**
 * Check that every component of `<root>/<relDir>` that exists is a real directory (never a symlink):
 * reading through a planted link would report another directory's files as progress. Returns false
 * when a component is missing (nothing to read), throws {@link ShardPathError} otherwise.
 */
export function checkNoSymlinks(root: string, relDir: string): boolean {
  let current = root;
  for (const part of checkRelativeDir(relDir).split('/')) {
    current = join(current, part);
    let info;
    try {
      info = lstatSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    if (info.isSymbolicLink()) throw new ShardPathError(relDir, `${current} is a symlink (not followed)`);
    if (!info.isDirectory()) throw new ShardPathError(relDir, `${current} is not a directory`);
  }
  return true;
}
