import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Result of one CLI invocation. */
export interface ProcessResult {
  readonly command: readonly string[];
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when the deadline passed and the group was killed. */
  readonly timedOut: boolean;
  readonly durationMs: number;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Grace between SIGTERM and SIGKILL on timeout. */
  readonly killGraceMs?: number;
  /**
   * After the process exits, how long to wait for its stdout/stderr to close. A background child
   * that inherited them would otherwise hold the run open until the deadline; after this grace the
   * pipes are dropped (the child is left to the caller's sweep).
   */
  readonly pipeGraceMs?: number;
  /**
   * Runs alongside the process (e.g. to interrupt it with SIGINT once a condition holds, as
   * Ctrl-C in a terminal signals the foreground process group). Its failure fails the run, after
   * the process has exited or been killed.
   */
  readonly during?: (control: RunningProcess) => Promise<void>;
}

/** Handle on a process started by {@link runInGroup}. */
export interface RunningProcess {
  readonly pid: number;
  /** Signals the whole process group. */
  signalGroup(signal: NodeJS.Signals): void;
  /** Resolves when the process has exited. */
  readonly exited: Promise<void>;
}

/**
 * Runs a command in its own process group (`detached`), stdin from /dev/null, with a hard
 * deadline: on timeout the whole group gets SIGTERM, then SIGKILL. The group is not killed after
 * a normal exit: some children legitimately outlive the CLI for a moment (Codex's fire-and-forget
 * `notify`); callers sweep leftovers with {@link killMarkedProcesses} once they are done waiting.
 */
export function runInGroup(argv: readonly string[], options: RunOptions): Promise<ProcessResult> {
  const [file, ...args] = argv;
  if (file === undefined) throw new Error('runInGroup: empty argv');
  const started = Date.now();
  let duringTask: Promise<void> | undefined;
  const finished = new Promise<ProcessResult>((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const deadline = setTimeout(() => {
      timedOut = true;
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), options.killGraceMs ?? 3000);
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    if (options.during && child.pid !== undefined) {
      const pid = child.pid;
      const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
      duringTask = options.during({ pid, signalGroup: (signal) => signalGroup(pid, signal), exited });
      // Reported after the process ends; keep an early failure from being unhandled meanwhile.
      duringTask.catch(() => undefined);
    }
    let settled = false;
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (killTimer) clearTimeout(killTimer);
      if (pipeTimer) clearTimeout(pipeTimer);
      if (timedOut) signalGroup(child.pid, 'SIGKILL');
      resolve({
        command: argv,
        exitCode,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
        durationMs: Date.now() - started,
      });
    };
    let pipeTimer: NodeJS.Timeout | undefined;
    child.once('exit', (exitCode, signal) => {
      pipeTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(exitCode, signal);
      }, options.pipeGraceMs ?? 5000);
    });
    child.once('close', finish);
  });
  return finished.then(async (result) => {
    if (duringTask) await duringTask;
    return result;
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // group already gone
  }
}

/**
 * Every process the harness starts carries `AC_E2E_RUN=<id>` in its environment, which all
 * descendants inherit, including the ones that leave the process group (PTY sessions started by
 * Codex's unified exec call `setsid`). Scanning /proc for the marker finds them all.
 */
export const RUN_MARKER_VAR = 'AC_E2E_RUN';

export function findMarkedProcesses(runId: string): number[] {
  return findProcessesWithEnvEntry(`${RUN_MARKER_VAR}=${runId}`);
}

/** Pids (other than this process) whose environment holds exactly `entry` (`NAME=value`); [] without /proc. */
export function findProcessesWithEnvEntry(entry: string): number[] {
  const needle = Buffer.from(`\0${entry}\0`);
  const found: number[] = [];
  // A leading NUL too, so `X_AC_E2E_RUN=…` or `HOME=/a/b/home` never match `…=/b/home`.
  visitProcessEnvironments((pid, environ) => {
    if (Buffer.concat([Buffer.from([0]), environ]).includes(needle)) found.push(pid);
  });
  return found;
}

/** The value of `name` in the environment of every other process that has it; empty without /proc. */
export function processEnvValues(name: string): Map<number, string> {
  const prefix = `${name}=`;
  const found = new Map<number, string>();
  visitProcessEnvironments((pid, environ) => {
    const entry = environ.toString('latin1').split('\0').find((e) => e.startsWith(prefix));
    if (entry !== undefined) found.set(pid, entry.slice(prefix.length));
  });
  return found;
}

function visitProcessEnvironments(visit: (pid: number, environ: Buffer) => void): void {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return; // not Linux: only the process-group kill applies
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${name}/environ`);
    } catch {
      continue; // exited meanwhile, or not ours to read
    }
    visit(pid, environ);
  }
}

/** SIGKILLs every live process carrying the run marker; returns how many were signalled. */
export function killMarkedProcesses(runId: string): number {
  const pids = findMarkedProcesses(runId);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids.length;
}

/** Command lines (argv joined by spaces) of the live processes carrying the run marker. */
export function markedCommandLines(runId: string): { pid: number; cmdline: string }[] {
  return findMarkedProcesses(runId).flatMap((pid) => {
    try {
      return [{ pid, cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() }];
    } catch {
      return [];
    }
  });
}
