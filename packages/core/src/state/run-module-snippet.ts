import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Test support (not exported from the package): run an ES module snippet (TypeScript imports allowed,
 * through tsx) in a child process and collect its output.
 *
 * For tests of code that must not block on special files: a FIFO open that blocks would wedge the
 * test worker itself (a thread stuck in open(2) keeps Node from exiting), but only this child here.
 * It sets no timer of its own — the test's vitest timeout is the deadline — and {@link killSnippets}
 * (call it in `afterEach`) kills whatever is still running.
 */
export function runModuleSnippet(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (error) => {
      running.delete(child);
      reject(error);
    });
    child.on('close', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

const running = new Set<ChildProcess>();

/** Kill every snippet still running (a test that timed out leaves its child blocked). */
export function killSnippets(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** The last line of a snippet's stdout, parsed as JSON (snippets print one JSON line at the end). */
export function lastJsonLine<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null') as T;
}
