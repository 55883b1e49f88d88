import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
// The one definition, shared with delivery-tmux's set-up commands (a subpath: one tiny module on the hot path).
import { currentDirectory } from '@agent-checkpoint/setup-kit/current-directory';

/**
 * The directory a hook run works in. The agent's payload names it (`cwd`); the hook process's own
 * working directory is only a fallback — and it may be gone: an agent started in a worktree that was
 * removed since keeps running there, and `process.cwd()` then throws (ENOENT). Neither may send the
 * run down its internal-error path while the payload names a directory that is fine.
 */

export { currentDirectory };

/** Where a run works: the directory, with a note when the payload's was not usable; or why there is none. */
export type RunCwd = { readonly kind: 'ok'; readonly cwd: string; readonly note?: string } | { readonly kind: 'none'; readonly detail: string };

/**
 * The payload's `cwd` when it is usable (absolute, exists, a directory: one `stat`), else the
 * process's directory when it still exists, else none.
 */
export function chooseRunCwd(payloadCwd: string | undefined, processCwd: string | undefined): RunCwd {
  if (payloadCwd === undefined) {
    return processCwd === undefined ? { kind: 'none', detail: 'the payload names no cwd and the hook process directory no longer exists (a removed worktree?)' } : { kind: 'ok', cwd: processCwd };
  }
  const problem = directoryProblem(payloadCwd);
  if (problem === undefined) return { kind: 'ok', cwd: payloadCwd };
  const why = `the payload cwd ${JSON.stringify(payloadCwd)} ${problem}`;
  return processCwd === undefined
    ? { kind: 'none', detail: `${why}, and the hook process directory no longer exists (a removed worktree?)` }
    : { kind: 'ok', cwd: processCwd, note: `${why}; using the hook process directory ${processCwd}` };
}

/**
 * Why `path` cannot be a directory to work in, or undefined when it can (one `stat`). Shared by the
 * hook run and the set-up commands' `--cwd`.
 */
export function directoryProblem(path: string): string | undefined {
  if (!isAbsolute(path)) return 'is not an absolute path';
  try {
    return statSync(path).isDirectory() ? undefined : 'is not a directory';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be used (${code ?? String(error)})`;
  }
}

/**
 * The directory a management command (`resume-prompt`, `state`) works for: `--cwd` when given (a
 * relative one resolved against the current directory), else the current directory. A current
 * directory that is gone (a removed worktree), or a `--cwd` that names no directory, gives the one
 * line to print instead of a raw exception later.
 */
export function chooseCommandCwd(given: string | undefined, current: string | undefined): RunCwd {
  if (given === undefined || given === '') {
    return current === undefined
      ? { kind: 'none', detail: 'the current directory no longer exists (a removed worktree?); cd into an existing directory, or pass --cwd <absolute directory>' }
      : { kind: 'ok', cwd: current };
  }
  if (!isAbsolute(given) && current === undefined) {
    return { kind: 'none', detail: `--cwd ${given} is relative, and the current directory no longer exists (a removed worktree?); pass an absolute directory` };
  }
  const dir = isAbsolute(given) ? given : resolve(current as string, given);
  const problem = directoryProblem(dir);
  return problem === undefined ? { kind: 'ok', cwd: dir } : { kind: 'none', detail: `--cwd ${given} ${problem}` };
}
