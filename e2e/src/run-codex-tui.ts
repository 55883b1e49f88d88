import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AgentSession, type PreparedSession, type SessionOptions } from './harness/agent-session.ts';
import { findMarkedProcesses, killMarkedProcesses } from './harness/process-group.ts';
import { TmuxServer } from './harness/tmux.ts';
import { waitFor } from './harness/wait-for.ts';
import { CodexSessionBase } from './run-codex.ts';

/** Screen texts of the Codex 0.169 TUI (codex-cli.md §6). */
export const CODEX_SCREEN = {
  /** Footer hint shown only while the composer is empty. */
  composerEmpty: '? for shortcuts',
  /** Shown in the status line while a turn runs. */
  busy: 'esc to interrupt',
  interrupted: 'Conversation interrupted',
} as const;

/** A labelled pane capture, kept for diagnostics and fixtures. */
export interface PaneSnapshot {
  readonly label: string;
  readonly at: string;
  readonly screen: string;
}

const isIdle = (screen: string): boolean => screen.includes(CODEX_SCREEN.composerEmpty) && !screen.includes(CODEX_SCREEN.busy);

/** How the TUI is started beyond the defaults. */
export interface CodexTuiOptions {
  /**
   * Run with Codex's default shared app-server daemon (as users do) instead of `--no-daemon`. The
   * daemon is stopped (`codex app-server daemon stop`) and its process group swept on dispose.
   */
  readonly daemon?: boolean;
  /**
   * Put a `codex` wrapper first on PATH and start the TUI through it. `no-queue` rejects the
   * `queue` subcommand (exit 2), simulating a Codex build without `codex queue`; everything else is
   * exec'd to the real CLI.
   */
  readonly codexWrapper?: 'no-queue';
  /**
   * Start another TUI first (window 0, idle, no prompt: it starts the shared daemon, whose
   * environment, `TMUX_PANE` included, notify inherits), then this session's TUI in a second window.
   */
  readonly bystander?: boolean;
}

/**
 * Codex CLI 0.169.0 TUI in tmux on a private socket, with `--no-daemon` (no background
 * app-server that outlives the test; {@link CodexTuiOptions.daemon} for the default daemon) and `--dangerously-bypass-hook-trust` (no hooks-review
 * dialog). The config written by {@link CodexSessionBase} skips every first-run screen, so the
 * TUI opens at the composer. Prompts are delivered as a bracketed paste followed by Enter, and
 * every wait is on a screen condition or a recorded hook/notify call, with a deadline.
 */
export class CodexTuiSession extends CodexSessionBase {
  readonly snapshots: PaneSnapshot[] = [];
  private tmuxServer: TmuxServer | undefined;

  private tuiOptions: CodexTuiOptions = {};

  static async start(options: SessionOptions & CodexTuiOptions & { startupTimeoutMs?: number }): Promise<CodexTuiSession> {
    const prepared = await AgentSession.prepare(options);
    let session: CodexTuiSession | undefined;
    try {
      session = new CodexTuiSession(prepared, options);
      session.tuiOptions = {
        ...(options.daemon !== undefined ? { daemon: options.daemon } : {}),
        ...(options.codexWrapper !== undefined ? { codexWrapper: options.codexWrapper } : {}),
        ...(options.bystander !== undefined ? { bystander: options.bystander } : {}),
      };
      await session.launch(options.startupTimeoutMs ?? 60_000);
      return session;
    } catch (error) {
      if (session) await session.dispose();
      else {
        prepared.workspace.dispose();
        if (prepared.ownsMock) await prepared.mock.close();
      }
      throw error;
    }
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super(prepared, options);
  }

  override env(): Record<string, string> {
    // The tmux socket goes under the workspace too, and is removed with it.
    const env: Record<string, string> = { ...super.env(), TMUX_TMPDIR: this.workspace.tmp };
    if (this.tuiOptions.codexWrapper === undefined) return env;
    return { ...env, PATH: `${this.wrapperDir}${path.delimiter}${env['PATH'] ?? ''}` };
  }

  private get wrapperDir(): string {
    return path.join(this.workspace.tmp, 'wrapper-bin');
  }

  /** Writes the `codex` wrapper of {@link CodexTuiOptions.codexWrapper}; returns its path. */
  private writeWrapper(): string {
    mkdirSync(this.wrapperDir, { recursive: true });
    const file = path.join(this.wrapperDir, 'codex');
    const real = this.cli.argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    writeFileSync(
      file,
      ['#!/bin/sh', '# A Codex build without `codex queue` (e2e simulation).', 'if [ "$1" = queue ]; then', "  echo \"error: unrecognized subcommand 'queue'\" >&2", '  exit 2', 'fi', `exec ${real} "$@"`, ''].join('\n'),
    );
    chmodSync(file, 0o755);
    return file;
  }

  get tmux(): TmuxServer {
    if (!this.tmuxServer) throw new Error('codex tui: not started');
    return this.tmuxServer;
  }

  /** The main thread's id: from the Stop hook's payload, else from the only rollout file. */
  get sessionId(): string | undefined {
    const fromHook = this.hookInvocations()
      .map((h) => h.payload?.['session_id'])
      .find((id): id is string => typeof id === 'string');
    if (fromHook !== undefined) return fromHook;
    const rollouts = this.rolloutFiles();
    const match = rollouts.length === 1 ? /-([0-9a-f-]{36})\.jsonl$/.exec(rollouts[0] ?? '') : null;
    return match?.[1];
  }

  override transcriptPaths(): string[] {
    return this.rolloutFiles();
  }

  private rolloutFiles(): string[] {
    // Title-generator threads write no rollout, so every file here is the main thread's.
    return super.transcriptPathsMatching('sessions/**/rollout-*.jsonl');
  }

  private async launch(timeoutMs: number): Promise<void> {
    this.tmuxServer = TmuxServer.start({
      cwd: this.workspace.repo,
      env: this.env(),
      argv: this.tuiArgv(),
      configDir: this.workspace.logs,
    });
    await this.waitForIdle({ timeoutMs, what: 'the Codex composer after startup' });
    if (this.tuiOptions.bystander === true) {
      // The first TUI (window 0) started the shared daemon; this session's TUI runs in a second
      // window, which becomes the active one every helper targets.
      this.bystanderPane = this.tmux.paneId();
      this.tmux.run(['new-window', '-t', 'main', '-c', this.workspace.repo, '--', ...this.tuiArgv()]);
      await this.waitForIdle({ timeoutMs, what: 'the second Codex composer after startup' });
    }
    this.snapshot('started');
  }

  /** The pane of the other TUI ({@link CodexTuiOptions.bystander}), e.g. `%0`. */
  bystanderPane: string | undefined;

  /** The other TUI's screen. */
  captureBystander(): string {
    if (this.bystanderPane === undefined) throw new Error('codex tui: no bystander');
    return this.tmux.run(['capture-pane', '-p', '-t', this.bystanderPane]);
  }

  private tuiArgv(): string[] {
    return [
      ...(this.tuiOptions.codexWrapper !== undefined ? [this.writeWrapper()] : this.cli.argv),
      // With `--dangerously-bypass-hook-trust` the TUI keeps its app server in-process (no daemon).
      ...(this.tuiOptions.daemon === true ? [] : ['--no-daemon', '--dangerously-bypass-hook-trust']),
    ];
  }

  snapshot(label: string): PaneSnapshot {
    const snap = { label, at: new Date().toISOString(), screen: this.tmux.safeCapture() };
    this.snapshots.push(snap);
    return snap;
  }

  /** Idle = empty-composer hint visible, no busy line, on two captures in a row. */
  async waitForIdle(options: { timeoutMs?: number; what?: string } = {}): Promise<string> {
    let seen = 0;
    return this.tmux.waitForScreen(
      (screen) => {
        seen = isIdle(screen) ? seen + 1 : 0;
        return seen >= 2;
      },
      { timeoutMs: options.timeoutMs ?? this.timeoutMs, what: options.what ?? 'an idle Codex composer' },
    );
  }

  /**
   * Submits a prompt: bracketed paste, wait until the composer holds it, Enter, and wait until
   * the composer is empty again (pressing Enter once more if the first was swallowed).
   */
  async submit(text: string, options: { timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? 15_000;
    await this.waitForIdle({ timeoutMs, what: 'an idle composer before submitting' });
    this.tmux.paste(text);
    await this.tmux.waitForScreen((screen) => !screen.includes(CODEX_SCREEN.composerEmpty), { timeoutMs, what: 'the pasted prompt in the composer' });
    this.tmux.sendKeys('Enter');
    try {
      await this.tmux.waitForScreen((screen) => screen.includes(CODEX_SCREEN.busy) || screen.includes(CODEX_SCREEN.composerEmpty), {
        timeoutMs: 3000,
        what: 'the prompt to be submitted',
      });
    } catch {
      this.tmux.sendKeys('Enter');
      await this.tmux.waitForScreen((screen) => screen.includes(CODEX_SCREEN.busy) || screen.includes(CODEX_SCREEN.composerEmpty), {
        timeoutMs,
        what: 'the prompt to be submitted (second Enter)',
      });
    }
  }

  /**
   * Waits until `turns` turns of the main thread have completed: notify fired for each (it fires
   * once per completed turn, after the last Stop) and the screen is idle again.
   */
  async waitForTurnsCompleted(turns: number, options: { timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    await waitFor(() => this.sessionId !== undefined && this.mainThreadNotifications().length >= turns, {
      timeoutMs,
      what: `${turns} completed codex turn(s) (notify)`,
    }).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n--- screen ---\n${this.tmux.safeCapture()}`);
    });
    await this.waitForIdle({ timeoutMs, what: 'an idle composer after the turn' });
  }

  /** Presses Esc while a turn runs and waits for "Conversation interrupted". */
  async interrupt(options: { timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    await this.tmux.waitForScreen((screen) => screen.includes(CODEX_SCREEN.busy), { timeoutMs, what: 'a running turn to interrupt' });
    this.tmux.sendKeys('Escape');
    await this.tmux.waitForScreen((screen) => screen.includes(CODEX_SCREEN.interrupted), { timeoutMs, what: 'the interrupted notice' });
  }

  protected override async disposeAgent(): Promise<void> {
    this.tmuxServer?.kill();
    if (this.tuiOptions.daemon === true) {
      // The daemon outlives the TUI by design: stop it through its own control (the marked-process
      // sweep of dispose catches anything left).
      spawnSync(this.cli.argv[0] as string, [...this.cli.argv.slice(1), 'app-server', 'daemon', 'stop'], { env: this.env(), stdio: 'ignore', timeout: 15_000, killSignal: 'SIGKILL' });
      // The daemon's helpers (its pid-update loop) may still be starting or exiting: sweep until
      // no marked process is left, so none outlives the test.
      await waitFor(
        () => {
          killMarkedProcesses(this.workspace.runId);
          return findMarkedProcesses(this.workspace.runId).length === 0;
        },
        { timeoutMs: 10_000, what: 'the Codex daemon and its helpers to exit', intervalMs: 100 },
      ).catch(() => undefined);
    }
  }

  /** Runs the real CLI (not the wrapper) with this session's environment, e.g. `codex queue …`. */
  runCodex(args: readonly string[], timeoutMs = 20_000): { status: number | null; stdout: string; stderr: string } {
    const result = spawnSync(this.cli.argv[0] as string, [...this.cli.argv.slice(1), ...args], { env: this.env(), cwd: this.workspace.repo, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /** Where the tmux socket lives (for debugging a kept workspace). */
  get tmuxSocketDir(): string {
    return path.join(this.workspace.tmp, `tmux-${process.getuid?.() ?? 0}`);
  }
}
