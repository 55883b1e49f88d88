import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readRegularFileSync } from '@agent-checkpoint/core/hot-path';

/** Bytes read of `.git/HEAD` or a worktree's `.git` file (both are one short line). */
const MAX_BYTES = 4096;
/** Directories walked up from the cwd looking for `.git`. */
const MAX_DEPTH = 64;

/**
 * The issue id in the current branch's name (`feature/ANV-123-oauth` → `ANV-123`), for the status
 * line's `[ISSUE: …]`. Reads `.git/HEAD` (following a linked worktree's `.git` file) without
 * starting git: the status line runs at every refresh. Undefined when there is no repository, the
 * HEAD is detached, or the branch names no issue. Never throws.
 */
export function readBranchIssue(cwd: string, pattern: RegExp): string | undefined {
  const branch = readBranch(cwd);
  if (branch === undefined) return undefined;
  const match = pattern.exec(branch);
  return match?.[0];
}

function readBranch(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (let i = 0; i < MAX_DEPTH; i += 1) {
    const dotGit = join(dir, '.git');
    const kind = kindOf(dotGit);
    if (kind === 'dir') return branchFromHead(readSmall(join(dotGit, 'HEAD')));
    if (kind === 'file') {
      const pointer = /^gitdir: (.+)$/m.exec(readSmall(dotGit) ?? '')?.[1]?.trim();
      if (pointer === undefined) return undefined;
      const gitDir = isAbsolute(pointer) ? pointer : resolve(dir, pointer);
      return branchFromHead(readSmall(join(gitDir, 'HEAD')));
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

function branchFromHead(head: string | undefined): string | undefined {
  const ref = /^ref: refs\/heads\/(\S+)\s*$/.exec(head ?? '')?.[1];
  return ref;
}

function kindOf(path: string): 'dir' | 'file' | undefined {
  try {
    const info = statSync(path);
    return info.isDirectory() ? 'dir' : info.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A small regular file (core's read: non-blocking, never through a final symlink, capped), or undefined:
 * the repository chooses what sits at `.git` and where its `gitdir:` points.
 */
function readSmall(path: string): string | undefined {
  try {
    return readRegularFileSync(path, MAX_BYTES)?.text;
  } catch {
    return undefined;
  }
}
