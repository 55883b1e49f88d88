import { lstat } from 'node:fs/promises';
import { basename } from 'node:path';
import { readProcessSubtree, type ProcessInfo } from './read-process-table.ts';
import { runTmux, type TmuxServer } from './run-tmux.ts';

/** The pane we may type into, after every check passed. */
export interface CodexPane {
  readonly server: TmuxServer;
  /** tmux pane id, `%N`. */
  readonly paneId: string;
  /** PID of the pane's first process. */
  readonly panePid: number;
  /** The Codex process leading the pane's foreground process group (the only kind of process in it). */
  readonly codex: { readonly pid: number; readonly argv: readonly string[] };
}

export type FindPaneResult =
  | { readonly ok: true; readonly pane: CodexPane }
  | { readonly ok: false; readonly reason: string };

export interface FindPaneOptions {
  /** Defaults to `/proc`; tests point it elsewhere. */
  readonly procRoot?: string;
  /** Time limit of each tmux call. */
  readonly tmuxTimeoutMs?: number;
}

/** `$TMUX` is `<socket path>,<server pid>,<session index>`; the socket path may contain commas. */
export function parseTmuxEnv(value: string | undefined): { socketPath: string; serverPid: number } | undefined {
  if (!value) return undefined;
  const match = /^(\/.*),(\d+),(-?\d+)$/.exec(value);
  if (!match) return undefined;
  return { socketPath: match[1] as string, serverPid: Number(match[2]) };
}

const PANE_ID_PATTERN = /^%\d+$/;

/**
 * The tmux state of one pane. `bracketPaste` is undefined on tmux < 3.4, which has no format for it.
 */
export interface PaneState {
  readonly paneId: string;
  readonly panePid: number;
  readonly serverPid: number;
  readonly dead: boolean;
  readonly inMode: boolean;
  readonly synchronized: boolean;
  readonly inputOff: boolean;
  readonly bracketPaste?: boolean;
}

const PANE_FORMAT = [
  '#{pane_id}',
  '#{pane_pid}',
  '#{pid}',
  '#{pane_dead}',
  '#{pane_in_mode}',
  '#{pane_synchronized}',
  '#{pane_input_off}',
  '#{bracket_paste_flag}',
].join('\t');

/**
 * Read one pane's state from the server. `list-panes -a` and an exact id match are used because
 * `display-message -t %N` prints an empty line and exits 0 when the pane does not exist (tmux 3.3).
 */
export async function readPaneState(
  server: TmuxServer,
  paneId: string,
  timeoutMs?: number,
): Promise<{ ok: true; state: PaneState } | { ok: false; reason: string }> {
  const listed = await runTmux(server, ['list-panes', '-a', '-F', PANE_FORMAT], timeoutMs !== undefined ? { timeoutMs } : {});
  if (!listed.ok) return { ok: false, reason: listed.failure ?? 'tmux list-panes failed' };
  for (const line of listed.stdout.split('\n')) {
    const [id, panePid, serverPid, dead, inMode, sync, inputOff, bracket] = line.split('\t');
    if (id !== paneId) continue;
    return {
      ok: true,
      state: {
        paneId: id,
        panePid: Number(panePid),
        serverPid: Number(serverPid),
        dead: dead === '1',
        inMode: inMode === '1',
        synchronized: sync === '1',
        inputOff: inputOff === '1',
        ...(bracket === '1' || bracket === '0' ? { bracketPaste: bracket === '1' } : {}),
      },
    };
  }
  return { ok: false, reason: `pane ${paneId} does not exist on the tmux server` };
}

/**
 * Why a pane state forbids typing, or undefined when it allows it. Keys sent to a pane in copy mode
 * drive copy mode; a synchronized pane forwards them to every pane of the window.
 */
export function paneStateProblem(state: PaneState): string | undefined {
  if (state.dead) return `pane ${state.paneId} is dead`;
  if (state.inMode) return `pane ${state.paneId} is in a mode (copy mode?)`;
  if (state.synchronized) return `pane ${state.paneId} has synchronize-panes on: keys would reach other panes`;
  if (state.inputOff) return `pane ${state.paneId} has input disabled`;
  if (state.bracketPaste === false) return `the program in pane ${state.paneId} has not enabled bracketed paste`;
  return undefined;
}

/**
 * Find the pane to type into, failing closed. Only the pane named by `$TMUX_PANE` on the server named
 * by `$TMUX` is considered: the socket must be a socket owned by the current user, the server must
 * be the one whose pid `$TMUX` records, the pane must exist, be live and not in a mode, and the
 * foreground process group of the pane's terminal must be Codex's alone (an idle-looking screen left
 * behind by a suspended Codex under a shell prompt does not count, nor a group shared with another
 * program that would read the keys).
 */
export async function findCodexPane(
  env: Readonly<Record<string, string | undefined>>,
  options: FindPaneOptions = {},
): Promise<FindPaneResult> {
  const tmux = parseTmuxEnv(env['TMUX']);
  if (!tmux) return { ok: false, reason: env['TMUX'] ? 'TMUX is not "<socket>,<pid>,<session>"' : 'not inside tmux (TMUX is unset)' };
  const paneId = env['TMUX_PANE'];
  if (!paneId || !PANE_ID_PATTERN.test(paneId)) {
    return { ok: false, reason: paneId ? `TMUX_PANE ${JSON.stringify(paneId.slice(0, 32))} is not a pane id` : 'TMUX_PANE is unset' };
  }
  const uid = process.getuid?.();
  if (uid === undefined) return { ok: false, reason: 'cannot check socket ownership on this platform' };
  try {
    const info = await lstat(tmux.socketPath);
    if (!info.isSocket()) return { ok: false, reason: `${tmux.socketPath} is not a socket` };
    if (info.uid !== uid) return { ok: false, reason: `tmux socket ${tmux.socketPath} is owned by uid ${info.uid}, not ${uid}` };
  } catch (error) {
    return { ok: false, reason: `tmux socket ${tmux.socketPath}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}` };
  }
  const server: TmuxServer = { socketPath: tmux.socketPath };
  const read = await readPaneState(server, paneId, options.tmuxTimeoutMs);
  if (!read.ok) return read;
  const { state } = read;
  if (state.serverPid !== tmux.serverPid) {
    return { ok: false, reason: `tmux server pid is ${state.serverPid}, TMUX says ${tmux.serverPid}` };
  }
  const problem = paneStateProblem(state);
  if (problem) return { ok: false, reason: problem };
  const tree = await readProcessSubtree(state.panePid, options.procRoot !== undefined ? { procRoot: options.procRoot } : {});
  if (!tree) return { ok: false, reason: 'cannot read the process table' };
  const found = findForegroundCodex(tree, state.panePid);
  if (!found.ok) return { ok: false, reason: `pane ${paneId}: ${found.reason}` };
  return { ok: true, pane: { server, paneId, panePid: state.panePid, codex: { pid: found.process.pid, argv: found.process.argv } } };
}

/**
 * Find the Codex process that owns the terminal's foreground: the foreground process group (read
 * from the pane's first process, whose controlling terminal is the pane) must be led by a Codex
 * process and hold nothing but Codex processes (the npm launcher and its native binary) and their
 * descendants (Codex runs `notify` and hooks as children in its own group: that is Codex's business).
 * A group that Codex shares with another program (`sh -c 'codex & exec cat'`, a wrapper script that
 * did not `exec`, an orphan left in the group) is refused: keys typed there may be read by that
 * program.
 */
export function findForegroundCodex(
  tree: ReadonlyMap<number, ProcessInfo>,
  panePid: number,
): { ok: true; process: ProcessInfo } | { ok: false; reason: string } {
  const root = tree.get(panePid);
  if (!root) return { ok: false, reason: `its process ${panePid} is gone` };
  const codex = [...tree.values()].filter((p) => isCodexArgv(p.argv));
  if (codex.length === 0) {
    const names = [...tree.values()].map((p) => basename(p.argv[0] ?? '?')).slice(0, 5);
    return { ok: false, reason: `no Codex process runs in it (found: ${names.join(', ') || 'nothing'})` };
  }
  if (!codex.some((p) => p.pgrp === root.tpgid)) return { ok: false, reason: 'Codex runs in it but is not in the foreground' };
  const group = [...tree.values()].filter((p) => p.pgrp === root.tpgid);
  const others = group.filter((p) => p.zombie !== true && !isCodexArgv(p.argv) && !descendsFromCodex(p, tree, root.tpgid));
  if (others.length > 0) {
    const names = others.map((p) => `${basename(p.argv[0] ?? '?')} (${p.pid})`).slice(0, 3);
    return { ok: false, reason: `Codex shares the foreground process group with another program: ${names.join(', ')}` };
  }
  const leader = group.find((p) => p.pid === root.tpgid);
  if (!leader) return { ok: false, reason: `the foreground process group ${root.tpgid} has no leader` };
  return { ok: true, process: leader };
}

/** True when a Codex process of the foreground group is among the ancestors of `process`. */
function descendsFromCodex(process: ProcessInfo, tree: ReadonlyMap<number, ProcessInfo>, group: number): boolean {
  let current = tree.get(process.ppid);
  for (let depth = 0; current !== undefined && depth < 64; depth += 1) {
    if (current.pgrp === group && isCodexArgv(current.argv)) return true;
    if (current.ppid === current.pid) return false;
    current = tree.get(current.ppid);
  }
  return false;
}

/** Interpreters that launch Codex's npm entry point (`node …/bin/codex.js`). */
const LAUNCHER = /^(node|nodejs|bun)(\d+(\.\d+)*)?(\.exe)?$/i;
/** The native binary (`…/vendor/<triple>/bin/codex`; older builds `codex-x86_64-unknown-linux-musl`). */
const NATIVE = /^codex(-(x86_64|aarch64|arm64)-[a-z0-9_-]+)?(\.exe)?$/i;
/** The npm entry script, or the npm bin link executed through node. */
const SCRIPT = /^codex(\.js|\.mjs|\.cjs)?$/i;

/** True when a command line is Codex: the native binary, or node running Codex's entry script. */
export function isCodexArgv(argv: readonly string[]): boolean {
  const program = basename(argv[0] ?? '');
  if (NATIVE.test(program)) return true;
  if (!LAUNCHER.test(program)) return false;
  const script = argv.slice(1).find((arg) => !arg.startsWith('-'));
  return script !== undefined && SCRIPT.test(basename(script));
}
