import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDirSafelySync } from '@agent-checkpoint/core';

/** The per-repository directory of agent-checkpoint's local files (handoffs, checkpoint state, logs). */
export const AGENT_CHECKPOINT_DIR = '.agent-checkpoint';

/** Content of `.agent-checkpoint/.gitignore`: ignore everything, the `.gitignore` itself included. */
export const IGNORE_ALL = '# Written by agent-checkpoint: local handoffs and state, never committed.\n*\n';

/**
 * Create `<root>/.agent-checkpoint/` and make git ignore it, without touching any file the user owns.
 *
 * Why a `.gitignore` inside the directory rather than a line in `.git/info/exclude` or the root
 * `.gitignore`: it needs no write to the user's files or to `.git/`, works the same in linked
 * worktrees and submodules (where `.git` is a file), disappears with the directory, and `*` also
 * matches the `.gitignore` itself, so `git status` shows nothing at all. An existing `.gitignore`
 * there is left alone (the user may have chosen to commit some of it).
 *
 * Returns the directory's absolute (real) path. Throws on I/O errors, and `UnsafePathError` when
 * `.agent-checkpoint` is a symlink or not a directory (a repository can carry one: never written
 * through; callers report it).
 */
export async function ensureAgentCheckpointDir(root: string): Promise<string> {
  const dir = ensureDirSafelySync(root, AGENT_CHECKPOINT_DIR, { dirMode: 0o755 });
  try {
    // `wx` is O_CREAT|O_EXCL: it never follows a link planted as the `.gitignore`.
    await writeFile(join(dir, '.gitignore'), IGNORE_ALL, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return dir;
}

/** True when a repo-relative path lies inside `.agent-checkpoint/`. */
export function isInAgentCheckpointDir(repoPath: string): boolean {
  return repoPath === AGENT_CHECKPOINT_DIR || repoPath.startsWith(`${AGENT_CHECKPOINT_DIR}/`);
}
