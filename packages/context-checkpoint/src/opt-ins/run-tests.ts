import { spawn } from 'node:child_process';

/** `runTests` settings after defaults (see `ResolvedRunTestsConfig` in the config schema). */
export interface RunTestsOptions {
  /** The user's command line, run by `/bin/sh -c` (it is a command *string* the user configured). */
  readonly command: string;
  /** Working directory: the repository root. */
  readonly cwd: string;
  /** Hard time limit; the whole process group is killed when it passes. */
  readonly timeoutMs: number;
  /** Aborts the run early (the hook's overall budget); reported as `timed-out`. */
  readonly signal?: AbortSignal;
  /** Environment of the command (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The shell (default `/bin/sh`). */
  readonly shell?: string;
  /** Bytes of combined output kept (the tail). Default 64 KiB. */
  readonly keepBytes?: number;
}

/** What a test run did. `outputTail` is the last lines of stdout and stderr, interleaved as written. */
export type TestRun =
  | {
      readonly status: 'passed';
      readonly command: string;
      readonly durationMs: number;
      /** The runner's "N passed" count, when its summary says so. */
      readonly passedCount?: number;
      readonly outputTail: string;
    }
  | {
      readonly status: 'failed';
      readonly command: string;
      readonly durationMs: number;
      /** Exit code, or undefined when a signal ended it. */
      readonly exitCode?: number;
      readonly signal?: string;
      readonly outputTail: string;
    }
  | { readonly status: 'timed-out'; readonly command: string; readonly durationMs: number; readonly limitMs: number; readonly outputTail: string }
  /** The shell could not be started (missing shell, missing cwd). */
  | { readonly status: 'error'; readonly command: string; readonly detail: string };

const DEFAULT_KEEP_BYTES = 64 * 1024;

/**
 * Run the configured test command once (seed 001's "run pytest in the hook", generalized). Never
 * throws or rejects.
 *
 * Why a shell: the user configures one command *string* (`pnpm test -- --run`, `pytest -x -q`), and
 * only a shell gives it its usual meaning (quoting, `&&`, env assignments). Nothing from the agent or
 * the transcript ever reaches that string.
 *
 * The command runs in its own process group with stdin closed; on timeout or abort the whole group is
 * killed with SIGKILL (test runners start workers that would otherwise outlive the hook), and the run
 * settles at once, without waiting for pipes a stray grandchild may hold open.
 */
export function runTests(options: RunTestsOptions): Promise<TestRun> {
  const { command } = options;
  const started = Date.now();
  if (options.signal?.aborted) {
    return Promise.resolve({ status: 'timed-out', command, durationMs: 0, limitMs: options.timeoutMs, outputTail: '' });
  }
  const keep = options.keepBytes ?? DEFAULT_KEEP_BYTES;
  return new Promise<TestRun>((resolve) => {
    let settled = false;
    let output = Buffer.alloc(0);
    let child: ReturnType<typeof spawn>;
    const finish = (run: TestRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(run);
    };
    const tail = (): string => output.toString('utf8').replace(/^[^\n]*\uFFFD/, '');
    const stop = (): void => {
      killGroup(child);
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish({ status: 'timed-out', command, durationMs: Date.now() - started, limitMs: options.timeoutMs, outputTail: tail() });
    };
    const onAbort = (): void => stop();
    const timer = setTimeout(stop, options.timeoutMs);
    try {
      child = spawn(options.shell ?? '/bin/sh', ['-c', command], {
        cwd: options.cwd,
        env: { ...(options.env ?? process.env) },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      finish({ status: 'error', command, detail: errorMessage(error) });
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (chunk: Buffer): void => {
      output = Buffer.concat([output, chunk]);
      if (output.length > keep) output = output.subarray(output.length - keep);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.on('error', (error) => finish({ status: 'error', command, detail: errorMessage(error) }));
    child.on('close', (code, signal) => {
      const durationMs = Date.now() - started;
      const outputTail = tail();
      if (code === 0) {
        const passedCount = passedCountOf(outputTail);
        finish({ status: 'passed', command, durationMs, ...(passedCount === undefined ? {} : { passedCount }), outputTail });
      } else {
        finish({
          status: 'failed',
          command,
          durationMs,
          ...(code === null ? {} : { exitCode: code }),
          ...(signal === null ? {} : { signal }),
          outputTail,
        });
      }
    });
  });
}

/**
 * The number of passed tests in a runner's summary: the last `N passed` (pytest `1033 passed`,
 * vitest `Tests  12 passed (12)`, jest `Tests: 5 passed, 5 total`, cargo `test result: ok. 12
 * passed`), or Go's count of `--- PASS` lines; undefined when the output says neither.
 */
export function passedCountOf(output: string): number | undefined {
  // oxlint-disable-next-line no-control-regex -- strips ANSI colour codes (ESC [ … letter) from runner output
  const plain = output.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
  const matches = [...plain.matchAll(/\b(\d+) (?:tests? )?passed\b/g)];
  const last = matches.at(-1);
  if (last) return Number(last[1]);
  const goPasses = plain.match(/^\s*--- PASS:/gm);
  return goPasses ? goPasses.length : undefined;
}

/**
 * The last `maxLines` non-empty lines of an output tail, each cut to `maxChars`, escape sequences
 * removed: what the message shows of a failed run.
 */
export function lastOutputLines(output: string, maxLines = 20, maxChars = 300): string {
  const lines = output
    // oxlint-disable-next-line no-control-regex -- strips ANSI colour codes (ESC [ … letter) from runner output
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/\r(?!\n)/g, '\n')
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  return lines
    .slice(-maxLines)
    .map((line) => (line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line))
    .join('\n');
}

function killGroup(child: ReturnType<typeof spawn> | undefined): void {
  const pid = child?.pid;
  if (child === undefined || pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already exited */
    }
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
