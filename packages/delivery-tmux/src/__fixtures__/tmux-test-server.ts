import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Absolute path of the fake Codex TUI (a file named codex.js, launched with node). */
export const FAKE_CODEX = join(import.meta.dirname, 'fake-codex', 'codex.js');

/** One event recorded by the fake Codex TUI. */
export interface FakeEvent {
  readonly t: number;
  readonly type: 'ready' | 'submit' | 'paste' | 'swallowed-enter' | 'escape' | 'interrupt' | 'ctrl-c' | 'control' | 'suspend' | 'exit';
  readonly text?: string;
  readonly [key: string]: unknown;
}

/**
 * A private tmux server for one test: its own socket in a temp dir, no config file, killed by
 * {@link TestTmux.dispose}. Never the user's server.
 */
export interface TestTmux {
  readonly dir: string;
  readonly socketPath: string;
  /** Run a tmux command on this server. */
  tmux(...args: string[]): Promise<string>;
  /** Start a session whose single pane runs `argv` (exec'd by tmux, no shell). */
  startPane(argv: readonly string[], size?: { cols: number; rows: number }): Promise<TestPane>;
  dispose(): Promise<void>;
}

export interface TestPane {
  readonly paneId: string;
  /** The environment a program inside this pane would see: TMUX and TMUX_PANE. */
  readonly env: { TMUX: string; TMUX_PANE: string };
  capture(): Promise<string>;
}

/** A started fake Codex with its event log. */
export interface FakeCodexPane extends TestPane {
  readonly recordPath: string;
  events(): FakeEvent[];
  submissions(): string[];
}

export async function startTestTmux(): Promise<TestTmux> {
  const dir = mkdtempSync(join(tmpdir(), 'ac-tmux-test-'));
  const socketPath = join(dir, 'tmux.sock');
  let sessions = 0;
  const tmux = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('tmux', ['-S', socketPath, '-f', '/dev/null', ...args], { timeout: 5000 });
    return stdout;
  };
  const startPane = async (argv: readonly string[], size = { cols: 160, rows: 40 }): Promise<TestPane> => {
    sessions += 1;
    const name = `t${sessions}`;
    await tmux('new-session', '-d', '-s', name, '-x', String(size.cols), '-y', String(size.rows), '--', ...argv);
    const [paneId = '', serverPid = ''] = (await tmux('display-message', '-p', '-t', `${name}:`, '#{pane_id} #{pid}')).trim().split(' ');
    return {
      paneId,
      env: { TMUX: `${socketPath},${serverPid},0`, TMUX_PANE: paneId },
      capture: () => tmux('capture-pane', '-p', '-t', paneId),
    };
  };
  return {
    dir,
    socketPath,
    tmux,
    startPane,
    async dispose() {
      if (existsSync(socketPath)) {
        // The panes' programs get SIGHUP and may still write (the fake records its exit), so wait
        // for them to be gone before removing their directory.
        const pids = (await tmux('list-panes', '-a', '-F', '#{pane_pid}').catch(() => ''))
          .split('\n')
          .filter(Boolean)
          .map(Number);
        await tmux('kill-server').catch(() => undefined);
        await waitFor(() => pids.every((pid) => !isAlive(pid)), 'pane processes to exit').catch(() => undefined);
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** Start the fake Codex TUI in a new pane and wait until it shows its idle composer. */
export async function startFakeCodex(server: TestTmux, options: readonly string[] = []): Promise<FakeCodexPane> {
  const recordPath = join(server.dir, `events-${Math.random().toString(36).slice(2)}.jsonl`);
  const pane = await server.startPane([process.execPath, FAKE_CODEX, '--record', recordPath, ...options]);
  const events = (): FakeEvent[] =>
    existsSync(recordPath)
      ? readFileSync(recordPath, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as FakeEvent)
      : [];
  const fake: FakeCodexPane = {
    ...pane,
    recordPath,
    events,
    submissions: () => events().filter((e) => e.type === 'submit').map((e) => e.text ?? ''),
  };
  await waitFor(async () => events().some((e) => e.type === 'ready') && (await pane.capture()).includes('› '), 'fake codex ready');
  return fake;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Poll `condition` until it holds; throws with `what` after `timeoutMs`. Never a bare sleep. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
