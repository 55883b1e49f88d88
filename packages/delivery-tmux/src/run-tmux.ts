import { spawn } from 'node:child_process';

/** A tmux server addressed by its socket path (never the default server by accident). */
export interface TmuxServer {
  readonly socketPath: string;
}

/** Outcome of one tmux command. */
export interface TmuxResult {
  /** Exit code 0 and not timed out. */
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** Why it failed, ready for a diagnostic: exit code, signal, timeout or spawn error. */
  readonly failure?: string;
}

export interface RunTmuxOptions {
  /** Written to tmux's stdin (for `load-buffer -`); stdin is closed otherwise. */
  readonly input?: string;
  /** Killed with SIGKILL past this. Default 2000 ms. */
  readonly timeoutMs?: number;
}

/** Longest stdout kept; a pane capture is a few KiB. */
const MAX_OUTPUT = 1024 * 1024;

/**
 * Run `tmux -S <socket> <args…>`. No shell is involved: every argument reaches tmux verbatim.
 * Never throws and never rejects.
 */
export function runTmux(server: TmuxServer, args: readonly string[], options: RunTmuxOptions = {}): Promise<TmuxResult> {
  const timeoutMs = options.timeoutMs ?? 2000;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    let timedOut = false;
    const finish = (result: TmuxResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('tmux', ['-S', server.socketPath, ...args], {
        stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      });
    } catch (error) {
      resolve({ ok: false, stdout: '', stderr: '', failure: `cannot run tmux: ${(error as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.on('error', (error) => finish({ ok: false, stdout, stderr, failure: `cannot run tmux: ${error.message}` }));
    child.on('close', (code, signal) => {
      if (timedOut) {
        finish({ ok: false, stdout, stderr, failure: `tmux ${args[0] ?? ''} timed out after ${timeoutMs} ms` });
      } else if (code === 0) {
        finish({ ok: true, stdout, stderr });
      } else {
        const why = signal ? `signal ${signal}` : `exit ${code}`;
        finish({ ok: false, stdout, stderr, failure: `tmux ${args[0] ?? ''} failed (${why}): ${stderr.trim().slice(0, 200)}` });
      }
    });
    if (options.input !== undefined && child.stdin) {
      // EPIPE when tmux exits early is reported through 'close'.
      child.stdin.on('error', () => {});
      child.stdin.end(options.input, 'utf8');
    }
  });
}
