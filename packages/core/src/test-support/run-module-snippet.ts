import { spawn, type ChildProcess } from 'node:child_process';

/** What one snippet run did. */
export interface SnippetRun {
  /** Killed at `timeoutMs` (the condition most callers assert against: a wedged call). */
  readonly timedOut: boolean;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Test support (not exported from the package): run an ES module snippet (TypeScript imports allowed,
 * through tsx) in a child process and collect its output.
 *
 * For tests of code that could block or hang (a FIFO open, a super-linear parse, a held lock): that
 * would wedge the test worker itself — a thread stuck in open(2) keeps Node from exiting — but here
 * only the child. With `timeoutMs` the child and everything it started (its own process group) are
 * killed then and the run reports `timedOut`; without it the test's vitest timeout is the deadline.
 * {@link killSnippets} (call it in `afterEach`) kills whatever is still running.
 */
export function runModuleSnippet(script: string, cwd: string, options: { readonly timeoutMs?: number } = {}): Promise<SnippetRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            kill(child);
          }, options.timeoutMs);
    const settle = (): void => {
      clearTimeout(timer);
      running.delete(child);
    };
    child.on('error', (error) => {
      settle();
      reject(error);
    });
    child.on('close', (code) => {
      settle();
      resolve({ timedOut, code, stdout, stderr });
    });
  });
}

const running = new Set<ChildProcess>();

/** Kill every snippet still running (a test that timed out leaves its child blocked). */
export function killSnippets(): void {
  for (const child of running) kill(child);
  running.clear();
}

function kill(child: ChildProcess): void {
  try {
    if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** The last line of a snippet's stdout, parsed as JSON (snippets print one JSON line at the end). */
export function lastJsonLine<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null') as T;
}
