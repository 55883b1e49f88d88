import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One process, as far as the pane check needs it. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** Process group id. */
  readonly pgrp: number;
  /** Foreground process group of the process's controlling terminal (-1 when it has none). */
  readonly tpgid: number;
  /** Exited, not yet reaped (state `Z`): it holds no terminal and reads nothing. */
  readonly zombie?: boolean;
  /**
   * Command line. Exact argv from `/proc/<pid>/cmdline`; with the `ps` fallback, the command line
   * split on spaces (good enough to recognise a program, never used to run anything).
   */
  readonly argv: readonly string[];
}

/**
 * The processes of the subtree rooted at `rootPid` (the root included), plus every process of the
 * root terminal's foreground process group (an orphan reparented away from the pane stays in that
 * group and can read the terminal), keyed by pid. Linux reads `/proc`; other systems (macOS) fall
 * back to `ps`. Resolves to undefined when neither works. Never rejects. The subtree is capped at
 * `maxProcesses` to bound the work.
 */
export async function readProcessSubtree(
  rootPid: number,
  options: { readonly procRoot?: string; readonly maxProcesses?: number } = {},
): Promise<ReadonlyMap<number, ProcessInfo> | undefined> {
  const procRoot = options.procRoot ?? '/proc';
  const max = options.maxProcesses ?? 512;
  const fromProc = await readFromProc(procRoot, rootPid, max);
  if (fromProc !== undefined) return fromProc;
  return readFromPs(rootPid, max);
}

async function readFromProc(procRoot: string, rootPid: number, max: number): Promise<Map<number, ProcessInfo> | undefined> {
  let entries: string[];
  try {
    entries = await readdir(procRoot);
  } catch {
    return undefined;
  }
  // First pass: the parent of every process (stat only), to find the subtree.
  const stats = new Map<number, Omit<ProcessInfo, 'argv'>>();
  await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        try {
          const stat = parseProcStat(await readFile(join(procRoot, name, 'stat'), 'utf8'));
          if (stat) stats.set(stat.pid, stat);
        } catch {
          // The process exited meanwhile.
        }
      }),
  );
  if (!stats.has(rootPid)) return stats.size === 0 ? undefined : new Map();
  const members = withForegroundGroup(rootPid, subtreePids(rootPid, [...stats.values()], max), [...stats.values()]);
  const result = new Map<number, ProcessInfo>();
  await Promise.all(
    members.map(async (pid) => {
      const stat = stats.get(pid);
      if (!stat) return;
      let argv: string[] = [];
      try {
        const raw = await readFile(join(procRoot, String(pid), 'cmdline'), 'utf8');
        argv = raw.split('\0').filter((part, index, all) => part !== '' || index < all.length - 1);
      } catch {
        // Exited, or not ours to read: an empty argv never matches.
      }
      result.set(pid, { ...stat, argv });
    }),
  );
  return result;
}

/**
 * Parse `/proc/<pid>/stat`. The command name (field 2) is in parentheses and may itself contain
 * spaces and parentheses, so fields are counted from the last `)`.
 */
export function parseProcStat(text: string): Omit<ProcessInfo, 'argv'> | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open === -1 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  // After ")": state ppid pgrp session tty_nr tpgid …
  const fields = text.slice(close + 1).trim().split(/\s+/);
  const ppid = Number(fields[1]);
  const pgrp = Number(fields[2]);
  const tpgid = Number(fields[5]);
  if (![pid, ppid, pgrp, tpgid].every(Number.isInteger)) return undefined;
  return { pid, ppid, pgrp, tpgid, ...(fields[0] === 'Z' ? { zombie: true } : {}) };
}

function readFromPs(rootPid: number, max: number): Promise<Map<number, ProcessInfo> | undefined> {
  return new Promise((resolve) => {
    execFile(
      'ps',
      ['-A', '-o', 'pid=,ppid=,pgid=,tpgid=,args='],
      { timeout: 2000, maxBuffer: 8 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout) => {
        if (error) {
          resolve(undefined);
          return;
        }
        const all: ProcessInfo[] = [];
        for (const line of stdout.split('\n')) {
          const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)\s+(.*)$/.exec(line);
          if (!match) continue;
          all.push({
            pid: Number(match[1]),
            ppid: Number(match[2]),
            pgrp: Number(match[3]),
            tpgid: Number(match[4]),
            argv: (match[5] ?? '').trim().split(/\s+/),
          });
        }
        const byPid = new Map(all.map((p) => [p.pid, p]));
        const result = new Map<number, ProcessInfo>();
        for (const pid of withForegroundGroup(rootPid, subtreePids(rootPid, all, max), all)) {
          const info = byPid.get(pid);
          if (info) result.set(pid, info);
        }
        resolve(result);
      },
    );
  });
}

/** Breadth-first pids of the subtree rooted at `rootPid`, root first, at most `max`. */
export function subtreePids(rootPid: number, processes: readonly { pid: number; ppid: number }[], max: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of processes) {
    if (p.pid === p.ppid) continue;
    const list = children.get(p.ppid);
    if (list) list.push(p.pid);
    else children.set(p.ppid, [p.pid]);
  }
  const seen = new Set<number>([rootPid]);
  const order = [rootPid];
  for (let i = 0; i < order.length && order.length < max; i += 1) {
    for (const child of children.get(order[i] as number) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      order.push(child);
      if (order.length >= max) break;
    }
  }
  return order;
}

/** `members` plus the pids of the root's terminal foreground process group that are not in it yet. */
function withForegroundGroup(rootPid: number, members: number[], processes: readonly Omit<ProcessInfo, 'argv'>[]): number[] {
  const root = processes.find((p) => p.pid === rootPid);
  if (!root || root.tpgid <= 0) return members;
  const seen = new Set(members);
  const extra = processes.filter((p) => p.pgrp === root.tpgid && !seen.has(p.pid)).map((p) => p.pid);
  return extra.length === 0 ? members : [...members, ...extra];
}
