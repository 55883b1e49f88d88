import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

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
 * Returns the directory's absolute path. Throws on I/O errors, and when `.agent-checkpoint` is a
 * symlink leading outside `root` (callers report them).
 */
export async function ensureAgentCheckpointDir(root: string): Promise<string> {
  const dir = join(root, AGENT_CHECKPOINT_DIR);
  // A repository can carry `.agent-checkpoint` as a symlink: never write through one that leads out.
  const real = await realpath(dir).catch(() => undefined);
  if (real !== undefined) {
    const rel = relative(await realpath(root), real);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`${dir} resolves to ${real}, outside ${root}; refusing to write there`);
  }
  await mkdir(dir, { recursive: true });
  try {
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
