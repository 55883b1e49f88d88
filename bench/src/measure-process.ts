import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** One measured process run. */
export interface ProcessSample {
  /** Spawn to exit, measured by the parent (includes fork/exec of the GNU time wrapper: ~1 ms, the same for every command). */
  readonly wallMs: number;
  /** Peak resident set size of the measured process (`ru_maxrss` via GNU time `%M`), KiB. */
  readonly peakRssKiB: number;
  /** User + system CPU time of the measured process, ms (10 ms resolution under GNU time). */
  readonly cpuMs: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  /** stderr without the line GNU time appended. */
  readonly stderr: string;
}

export interface RunOptions {
  readonly input?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly timeoutMs?: number;
}

const GNU_TIME = '/usr/bin/time';
const MARKER = 'AC_BENCH_MAXRSS_KIB=';

/** Fallback preload: the node process reports its own peak RSS as its last stderr line. */
const SELF_REPORT = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\n${MARKER}'+u.maxRSS+' '+u.userCPUTime/1e6+' '+u.systemCPUTime/1e6+'\\n')})`;

let gnuTimeChecked: boolean | undefined;

/**
 * Whether `/usr/bin/time` is GNU time. Peak RSS comes from the kernel's `ru_maxrss` of the exited child
 * (wait4), exact whatever the process lifetime — unlike sampling `/proc/<pid>/status` VmHWM, which
 * misses processes that exit between two samples and cannot be read after exit.
 */
export function hasGnuTime(): boolean {
  if (gnuTimeChecked === undefined) {
    gnuTimeChecked = false;
    if (existsSync(GNU_TIME)) {
      const probe = spawnSync(GNU_TIME, ['-f', `${MARKER}%M`, 'true'], { encoding: 'utf8' });
      gnuTimeChecked = probe.status === 0 && probe.stderr.includes(MARKER);
    }
  }
  return gnuTimeChecked;
}

/**
 * The harness's environment without NODE_* variables: `NODE_EXTRA_CA_CERTS` alone adds ~85 ms to every
 * node start on a machine that sets it (node parses the CA bundle before any JavaScript runs), and
 * `NODE_OPTIONS` could load anything. Measured commands get either this or an explicit hermetic env.
 */
export function harnessEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('NODE_')));
}

/** NODE_* variables set in the harness's environment (reported, never passed on). */
export function droppedNodeVariables(): string[] {
  return Object.keys(process.env).filter((k) => k.startsWith('NODE_'));
}

/**
 * Run `argv` once (synchronously, so the harness adds no event-loop jitter) and measure wall time and
 * peak RSS. Without GNU time, node processes report their own `maxRSS` through a preload (`--import`);
 * other commands then report NaN.
 */
export function runMeasured(argv: readonly string[], options: RunOptions = {}): ProcessSample {
  const [command, ...args] = argv;
  if (command === undefined) throw new Error('runMeasured: empty argv');
  const useTime = hasGnuTime();
  const file = useTime ? GNU_TIME : command;
  const fullArgs = useTime
    ? ['-f', `${MARKER}%M %U %S`, '--', command, ...args]
    : command === process.execPath
      ? ['--import', SELF_REPORT, ...args]
      : [...args];
  const start = process.hrtime.bigint();
  const result = spawnSync(file, fullArgs, {
    input: options.input ?? '',
    env: options.env ?? harnessEnv(),
    cwd: options.cwd,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.error !== undefined) throw result.error;
  let stderr = result.stderr;
  let peakRssKiB = Number.NaN;
  let cpuMs = Number.NaN;
  const at = stderr.lastIndexOf(MARKER);
  if (at !== -1) {
    const [rss = '', user = '', system = ''] = stderr.slice(at + MARKER.length).trim().split(/\s+/);
    peakRssKiB = Number.parseInt(rss, 10);
    cpuMs = (Number(user) + Number(system)) * 1000;
    stderr = stderr.slice(0, at);
    // GNU time prefixes "Command exited with non-zero status N" / "Command terminated by signal N".
    stderr = stderr.replace(/Command (exited with non-zero status|terminated by signal) \d+\n$/, '');
  }
  // Under GNU time the status is the child's (time exits with it); a signal shows as 128+N.
  return { wallMs, peakRssKiB, cpuMs, exitCode: result.status, signal: result.signal, stdout: result.stdout, stderr };
}
