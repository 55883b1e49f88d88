import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tmuxSocketName } from './leftovers.ts';
import { waitFor } from './wait-for.ts';

export interface TmuxStartOptions {
  readonly cwd: string;
  /** Environment of the tmux server, inherited by the pane's program. */
  readonly env: Readonly<Record<string, string>>;
  /** The pane's program, executed directly (no shell). */
  readonly argv: readonly string[];
  /** Where the generated tmux.conf goes. */
  readonly configDir: string;
  readonly width?: number;
  readonly height?: number;
}

/**
 * One tmux server on a private socket (`tmux -L ac-e2e-o<owner>-<random>`, leftovers.ts), never the user's default
 * server, holding one session with one pane. The server starts with a minimal config of its own
 * (`-f`), keeps the pane after its program exits (so the last screen can still be captured) and
 * is killed by {@link TmuxServer.kill}.
 */
export class TmuxServer {
  readonly socketName: string;
  private readonly env: Readonly<Record<string, string>>;
  private killed = false;

  private constructor(socketName: string, env: Readonly<Record<string, string>>) {
    this.socketName = socketName;
    this.env = env;
  }

  static start(options: TmuxStartOptions): TmuxServer {
    const socketName = tmuxSocketName();
    const configFile = path.join(options.configDir, 'tmux.conf');
    writeFileSync(configFile, ['set -g remain-on-exit on', 'set -g history-limit 5000', 'set -g default-terminal "tmux-256color"', ''].join('\n'));
    const server = new TmuxServer(socketName, options.env);
    server.run([
      '-f',
      configFile,
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(options.width ?? 200),
      '-y',
      String(options.height ?? 50),
      '-c',
      options.cwd,
      '--',
      ...options.argv,
    ]);
    return server;
  }

  /** Runs a tmux client command against this server; returns stdout. */
  run(args: readonly string[], input?: string): string {
    return execFileSync('tmux', ['-L', this.socketName, ...args], {
      env: this.env,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(input === undefined ? {} : { input }),
    });
  }

  /** The visible screen as plain text. */
  capture(): string {
    return this.run(['capture-pane', '-p', '-t', 'main']);
  }

  /** `$TMUX_PANE` of the pane, e.g. `%0`. */
  paneId(): string {
    return this.run(['display-message', '-p', '-t', 'main', '#{pane_id}']).trim();
  }

  /** True while the pane's program runs (remain-on-exit keeps dead panes around). */
  paneAlive(): boolean {
    return this.run(['display-message', '-p', '-t', 'main', '#{pane_dead}']).trim() === '0';
  }

  async waitForScreen(predicate: (screen: string) => boolean, options: { timeoutMs: number; what: string }): Promise<string> {
    try {
      return await waitFor(
        () => {
          const screen = this.capture();
          return predicate(screen) ? screen : undefined;
        },
        { timeoutMs: options.timeoutMs, what: options.what, intervalMs: 150 },
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- screen ---\n${this.safeCapture()}`);
    }
  }

  /**
   * Press `keys` until the screen satisfies `predicate`, again every `retryMs` (default 2 s) until
   * `timeoutMs`. For an idempotent key (a menu choice's number) on a TUI that draws its prompt before its
   * input loop reads: a press in between can be dropped (seen once in CI with Codex 0.169's hooks review
   * prompt: the key never selected the choice), so one press and a wait is a flaky test.
   */
  async pressUntil(keys: readonly string[], predicate: (screen: string) => boolean, options: { timeoutMs: number; what: string; retryMs?: number }): Promise<string> {
    const deadline = Date.now() + options.timeoutMs;
    const retryMs = options.retryMs ?? 2000;
    for (;;) {
      this.sendKeys(...keys);
      const remaining = deadline - Date.now();
      try {
        return await this.waitForScreen(predicate, { timeoutMs: Math.max(1, Math.min(retryMs, remaining)), what: options.what });
      } catch (error) {
        if (Date.now() >= deadline) throw error;
      }
    }
  }

  /** Keys by tmux name (`Enter`, `Escape`, `C-c`). */
  sendKeys(...keys: string[]): void {
    this.run(['send-keys', '-t', 'main', ...keys]);
  }

  /** Text typed literally (a fast burst: TUIs may treat it as a paste). */
  typeLiteral(text: string): void {
    this.run(['send-keys', '-t', 'main', '-l', text]);
  }

  /** Bracketed paste through a named buffer (the injection recipe of codex-cli.md §6). */
  paste(text: string): void {
    this.run(['load-buffer', '-b', 'e2e', '-'], text);
    this.run(['paste-buffer', '-p', '-d', '-b', 'e2e', '-t', 'main']);
  }

  safeCapture(): string {
    try {
      return this.capture();
    } catch (error) {
      return `<capture failed: ${String(error)}>`;
    }
  }

  /** Kills the server and with it the pane's program (SIGHUP). Idempotent. */
  kill(): void {
    if (this.killed) return;
    this.killed = true;
    spawnSync('tmux', ['-L', this.socketName, 'kill-server'], { env: this.env, stdio: 'ignore' });
  }
}
