import { spawn } from 'node:child_process';
import { buildGitInvocation, type GitCallProfile } from './git-safety.ts';

export { GIT_ENV_OVERRIDES } from './git-safety.ts';

/** Options of {@link runGit}. */
export interface RunGitOptions {
  /** Working directory of the git process. */
  readonly cwd: string;
  /** Hard time limit; the process (and everything it started) is killed when it passes. */
  readonly timeoutMs: number;
  /** Aborts the call early; treated like a timeout. */
  readonly signal?: AbortSignal;
  /** The git executable. Default `git` (resolved on PATH). */
  readonly gitBinary?: string;
  /**
   * Environment (defaults to `process.env`). Variables that redirect git (GIT_DIR, GIT_INDEX_FILE…,
   * see `SCRUBBED_GIT_ENV`) are removed and `GIT_ENV_OVERRIDES` applied on top.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * `read` (default): nothing the repository's configuration names is run (no fsmonitor hook, no
   * signature program, no transport). A `GitWriteProfile` (`gitWriteProfile`): a commit or push, with
   * the user's own settings and nothing the repository names. See `GitCallProfile`.
   */
  readonly profile?: GitCallProfile;
  /** More `-c` settings, e.g. `filterDriverOverrides(...)` for a `status` that could run filters. */
  readonly config?: readonly (readonly [string, string])[];
  /** Cap on collected stdout bytes; beyond it the process is killed and the call fails. Default 256 MiB. */
  readonly maxOutputBytes?: number;
}

/** Result of {@link runGit}. A non-zero exit is not a failure of the call: callers read `code`. */
export type RunGitResult =
  | { readonly kind: 'exited'; readonly code: number; readonly stdout: Buffer; readonly stderr: string }
  | { readonly kind: 'timeout'; readonly ms: number }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'spawn-error'; readonly code: string | undefined; readonly message: string }
  | { readonly kind: 'killed'; readonly signal: string; readonly stderr: string }
  | { readonly kind: 'output-too-large'; readonly limit: number };

const DEFAULT_MAX_OUTPUT = 256 * 1024 * 1024;
const STDERR_KEEP = 4096;

/**
 * Run one git command and collect its raw stdout as a Buffer (paths from `-z` output may not be
 * UTF-8, so decoding is the caller's business).
 *
 * The child runs in its own process group (POSIX), so on timeout or abort the whole group is killed
 * with SIGKILL: git's own children (fsmonitor hooks, submodule status, a wrapper script's `sleep`)
 * die with it instead of lingering after the hook has returned. On Windows only the direct child can
 * be killed. Never throws and never rejects.
 *
 * Every git process the product starts in a user's repository goes through here, so the repository's
 * configuration cannot make it run programs (see `buildGitInvocation`).
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<RunGitResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.resolve({ kind: 'aborted' });
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const invocation = buildGitInvocation(args, options.env ?? process.env, options.profile ?? 'read', options.config);

  return new Promise<RunGitResult>((resolve) => {
    let settled = false;
    let stop: RunGitResult | undefined;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';

    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(options.gitBinary ?? 'git', invocation.args, {
        cwd: options.cwd,
        env: invocation.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      resolve(spawnError(error));
      return;
    }

    const kill = (reason: RunGitResult): void => {
      if (stop !== undefined) return;
      stop = reason;
      killTree(child);
      // Settle now rather than on 'close': a grandchild that escaped the group could hold the pipes
      // open indefinitely, and the caller's time limit is a promise.
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish(reason);
    };
    const timer = setTimeout(() => kill({ kind: 'timeout', ms: options.timeoutMs }), options.timeoutMs);
    const onAbort = (): void => kill({ kind: 'aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (result: RunGitResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };

    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutput) {
        kill({ kind: 'output-too-large', limit: maxOutput });
        return;
      }
      stdout.push(chunk);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      if (stderr.length < STDERR_KEEP) stderr += chunk.slice(0, STDERR_KEEP - stderr.length);
    });
    child.on('error', (error) => {
      // Spawn failures (ENOENT: no git, or no cwd) arrive here; after a kill, errors are noise.
      finish(stop ?? spawnError(error));
    });
    child.on('close', (code, sig) => {
      if (stop !== undefined) finish(stop);
      else if (code !== null) finish({ kind: 'exited', code, stdout: Buffer.concat(stdout, stdoutBytes), stderr });
      else finish({ kind: 'killed', signal: sig ?? 'unknown', stderr });
    });
  });
}

function killTree(child: ReturnType<typeof spawn>): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone; make sure the direct child is too.
    try {
      child.kill('SIGKILL');
    } catch {
      /* already exited */
    }
  }
}

function spawnError(error: unknown): RunGitResult {
  const err = error as NodeJS.ErrnoException;
  return { kind: 'spawn-error', code: err?.code, message: err?.message ?? String(error) };
}
