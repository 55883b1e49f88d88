import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findProcessesWithEnvEntry, processEnvValues, RUN_MARKER_VAR } from './process-group.ts';

/**
 * Leftovers of a killed e2e run. A run killed with SIGKILL (a CI timeout, a closed terminal) cannot
 * dispose its sessions: the CLIs run in their own process groups, Codex's app-server daemon and
 * the private tmux servers are daemons, so they keep running, and the temp workspaces stay.
 *
 * Every such resource carries the token of its **owner**, the e2e run that created it: the vitest
 * main process (the global setup exports {@link OWNER_VAR}, inherited by the workers), else the
 * creating process itself. A token is `<pid>-<start time>` (the start time, from /proc, makes a
 * reused pid a different owner). {@link reapLeftovers} removes only resources whose token is
 * parseable and whose owner is gone — never a tmux server, process or directory without our
 * token, so a user's tmux and a concurrent run's resources are left alone.
 */
export const OWNER_VAR = 'AC_E2E_OWNER';

/** Beside each temp workspace's `repo/`, `home/`…: the owner token. */
const OWNER_FILE = '.ac-e2e-owner';
/** Written by a workspace kept for debugging (`AGENT_CHECKPOINT_E2E_KEEP=1`): reaped of processes, not deleted. */
const KEPT_FILE = '.ac-e2e-kept';
/** `ac-e2e-<runId>-XXXXXX` (temp-workspace.ts). */
const WORKSPACE_DIR = /^ac-e2e-([0-9a-f]{12})-[A-Za-z0-9]+$/;
/** `ac-e2e-o<pid>-<start>-<random>` (tmux.ts). */
const TMUX_SOCKET = /^ac-e2e-o(\d+-\d+)-[0-9a-f]+$/;

/** Start time of a process in clock ticks since boot (/proc/<pid>/stat field 22); 0 where there is no /proc. */
function startTime(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return existsSync('/proc/self/stat') ? undefined : 0;
  }
  // Fields after the command name, which may itself contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const value = Number(fields[19]);
  return Number.isSafeInteger(value) ? value : undefined;
}

function ownerToken(pid: number): string {
  return `${pid}-${startTime(pid) ?? 0}`;
}

/** The token of the run this process belongs to. */
export function currentOwner(): string {
  const inherited = process.env[OWNER_VAR];
  return inherited !== undefined && /^\d+-\d+$/.test(inherited) ? inherited : ownerToken(process.pid);
}

/** Makes this process the owner of what it and its vitest workers create (the global setup calls it). */
export function claimOwnership(): string {
  const token = ownerToken(process.pid);
  process.env[OWNER_VAR] = token;
  return token;
}

/** Whether the process a token names still runs (the same process, not a reuse of its pid). */
export function ownerAlive(token: string): boolean {
  const [pid, start] = token.split('-').map(Number) as [number, number];
  try {
    process.kill(pid, 0);
  } catch {
    // Gone, or (EPERM) a pid reused by another user's process: either way not our owner.
    return false;
  }
  // Without /proc (start 0) a live pid counts as the owner: reaping too little is the safe side.
  return start === 0 || startTime(pid) === start;
}

/** Records the owner in a new temp workspace (temp-workspace.ts). */
export function recordWorkspaceOwner(root: string): void {
  writeFileSync(path.join(root, OWNER_FILE), `${currentOwner()}\n`);
}

/** Marks a workspace kept on purpose: a later reap stops its processes but keeps the files. */
export function markWorkspaceKept(root: string): void {
  writeFileSync(path.join(root, KEPT_FILE), '');
}

/** A private tmux socket name that carries the owner token. */
export function tmuxSocketName(): string {
  return `ac-e2e-o${currentOwner()}-${randomBytes(4).toString('hex')}`;
}

/** The directory of `tmux -L` sockets for an environment (tmux: `$TMUX_TMPDIR` or /tmp, then `tmux-<uid>`). */
export function tmuxSocketDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['TMUX_TMPDIR'] !== undefined && env['TMUX_TMPDIR'] !== '' ? env['TMUX_TMPDIR'] : '/tmp';
  return path.join(base, `tmux-${os.userInfo().uid}`);
}

/** What {@link reapLeftovers} removed. */
export interface ReapReport {
  /** Socket paths of the tmux servers killed (or stale sockets removed). */
  readonly tmuxServers: readonly string[];
  /** Temp workspace roots reaped (deleted unless kept). */
  readonly workspaces: readonly string[];
  /** Pids sent SIGKILL. */
  readonly processes: readonly number[];
}

export interface ReapOptions {
  /** Where temp workspaces are created; `os.tmpdir()` by default. */
  readonly tmpDir?: string;
  /** Directories of `tmux -L` sockets; {@link tmuxSocketDir} by default. */
  readonly tmuxSocketDirs?: readonly string[];
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function readOwner(root: string): string | undefined {
  try {
    const token = readFileSync(path.join(root, OWNER_FILE), 'utf8').trim();
    return /^\d+-\d+$/.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // exited meanwhile
    }
  }
}

/**
 * Removes what earlier, killed runs left: their orphaned workers, their private tmux servers, every process started in
 * their temp workspaces (found by the run marker in the environment, or by a `$HOME` inside the
 * workspace: Codex's daemon and the PTYs it starts with `setsid`), then the workspaces. Runs at
 * the start of every e2e run (vitest global setup).
 */
export function reapLeftovers(options: ReapOptions = {}): ReapReport {
  const processes: number[] = [];
  // First the vitest workers a killed run orphaned (they inherited its token): left alone they go
  // on running tests, starting CLIs and creating workspaces after this reap.
  const orphans = [...processEnvValues(OWNER_VAR)].filter(([, token]) => /^\d+-\d+$/.test(token) && !ownerAlive(token)).map(([pid]) => pid);
  killAll(orphans);
  processes.push(...orphans);
  const tmuxServers: string[] = [];
  for (const dir of options.tmuxSocketDirs ?? [tmuxSocketDir()]) {
    for (const name of listDir(dir)) {
      const token = TMUX_SOCKET.exec(name)?.[1];
      if (token === undefined || ownerAlive(token)) continue;
      const socket = path.join(dir, name);
      spawnSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore', timeout: 10_000, killSignal: 'SIGKILL' });
      // A server that died with its run leaves its socket file behind.
      try {
        unlinkSync(socket);
      } catch {
        // removed by tmux on exit
      }
      tmuxServers.push(socket);
    }
  }
  const workspaces: string[] = [];
  const tmpDir = options.tmpDir ?? os.tmpdir();
  // Workspace roots are realpaths (temp-workspace.ts), and so is the `HOME` their processes got.
  const realTmpDir = existsSync(tmpDir) ? realpathSync(tmpDir) : tmpDir;
  for (const name of listDir(realTmpDir)) {
    const runId = WORKSPACE_DIR.exec(name)?.[1];
    if (runId === undefined) continue;
    const root = path.join(realTmpDir, name);
    const owner = readOwner(root);
    if (owner === undefined || ownerAlive(owner)) continue;
    // The Codex TUI sessions keep their tmux socket in the workspace (TMUX_TMPDIR = <root>/tmp).
    for (const socket of listDir(path.join(root, 'tmp', `tmux-${os.userInfo().uid}`))) {
      spawnSync('tmux', ['-S', path.join(root, 'tmp', `tmux-${os.userInfo().uid}`, socket), 'kill-server'], { stdio: 'ignore', timeout: 10_000, killSignal: 'SIGKILL' });
      tmuxServers.push(path.join(root, 'tmp', `tmux-${os.userInfo().uid}`, socket));
    }
    const pids = [...new Set([...findProcessesWithEnvEntry(`${RUN_MARKER_VAR}=${runId}`), ...findProcessesWithEnvEntry(`HOME=${path.join(root, 'home')}`)])];
    killAll(pids);
    processes.push(...pids);
    if (!existsSync(path.join(root, KEPT_FILE))) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    workspaces.push(root);
  }
  return { tmuxServers, workspaces, processes };
}
