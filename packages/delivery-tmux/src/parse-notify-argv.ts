/**
 * The argv contract of `agent-checkpoint-tmux` (what goes into Codex's `notify` array):
 *
 * ```
 * agent-checkpoint-tmux [--option=value …] [-- <program> [<arg> …]] <payload>
 * ```
 *
 * - `<payload>` is the JSON Codex appends. It is **always the last argument**.
 * - Everything between `--` and the payload is a previous `notify` program to chain: it is spawned
 *   detached, with the same payload appended as its last argument (exactly as Codex would have run
 *   it), and never waited for. An installer that finds `notify = ["notify-send", "Codex"]` writes
 *   `notify = ["node", "/abs/agent-checkpoint-tmux.mjs", "--", "notify-send", "Codex"]`.
 * - Options use the `--name=value` form only, so a value can never be mistaken for the payload.
 */
export interface NotifyArgv {
  readonly options: NotifyOptions;
  /** The chained notify program's argv (without the payload); empty when none. */
  readonly chain: readonly string[];
  /** The raw payload argument, when present. */
  readonly payload?: string;
  readonly help: boolean;
  readonly version: boolean;
  /** Unknown or malformed options; reported on stderr, never fatal. */
  readonly diagnostics: readonly string[];
}

/** Timings of the typing sequence, in milliseconds. */
export interface NotifyOptions {
  /** Pause between the paste and the Enter key (Codex's paste-burst guard). Default 300. */
  readonly enterDelayMs?: number;
  /** Longest wait for the pane to become idle after the turn ends. Default 2000. */
  readonly idleWaitMs?: number;
  /** Longest wait for the composer to empty after each Enter. Default 2000. */
  readonly confirmTimeoutMs?: number;
  /** Queue transport: how long the detached confirmer waits for the queued turn. Default 20000. */
  readonly queueConfirmMs?: number;
  /** Absolute path of the Codex to run `codex queue` with (default: `codex` on PATH). */
  readonly codexBin?: string;
  /** `auto` (default): `codex queue` when available, else verified tmux typing. */
  readonly transport?: TransportChoice;
}

/** The `--transport` option. */
export type TransportChoice = 'auto' | 'queue' | 'tmux';

const NUMERIC_OPTIONS = {
  '--enter-delay-ms': 'enterDelayMs',
  '--idle-wait-ms': 'idleWaitMs',
  '--confirm-timeout-ms': 'confirmTimeoutMs',
  '--queue-confirm-ms': 'queueConfirmMs',
} as const satisfies Record<string, 'enterDelayMs' | 'idleWaitMs' | 'confirmTimeoutMs' | 'queueConfirmMs'>;

/** Every option of the notify form (each `--name=value`), for the help test and the program's help. */
export const NOTIFY_OPTION_NAMES: readonly string[] = ['--transport', '--codex-bin', ...Object.keys(NUMERIC_OPTIONS)];

/** Parse the notify argv (without `node` and the script path). Never throws. */
export function parseNotifyArgv(argv: readonly string[]): NotifyArgv {
  const options: { -readonly [K in keyof NotifyOptions]: NotifyOptions[K] } = {};
  const diagnostics: string[] = [];
  let help = false;
  let version = false;
  const dashDash = argv.indexOf('--');
  const head = dashDash === -1 ? argv.slice(0, -1) : argv.slice(0, dashDash);
  const tail = dashDash === -1 ? argv.slice(-1) : argv.slice(dashDash + 1);

  for (const arg of head) {
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (arg === '--version') {
      version = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (name === '--codex-bin' && eq !== -1) {
      const value = arg.slice(eq + 1);
      if (value.startsWith('/') && !value.includes('\0')) options.codexBin = value;
      else diagnostics.push('ignoring --codex-bin: expected an absolute path');
      continue;
    }
    if (name === '--transport' && eq !== -1) {
      const value = arg.slice(eq + 1);
      if (value === 'auto' || value === 'queue' || value === 'tmux') options.transport = value;
      else diagnostics.push('ignoring --transport: expected auto, queue or tmux');
      continue;
    }
    const key = (NUMERIC_OPTIONS as Record<string, (typeof NUMERIC_OPTIONS)[keyof typeof NUMERIC_OPTIONS] | undefined>)[name];
    if (key === undefined || eq === -1) {
      diagnostics.push(`ignoring unknown argument ${JSON.stringify(arg.slice(0, 64))}`);
      continue;
    }
    const value = Number(arg.slice(eq + 1));
    if (!Number.isInteger(value) || value < 0 || value > (key === 'queueConfirmMs' ? 600_000 : 60_000)) {
      diagnostics.push(`ignoring ${name}: expected an integer 0..${key === 'queueConfirmMs' ? 600000 : 60000}`);
      continue;
    }
    options[key] = value;
  }

  // A lone `--help` has no payload: the single argument is the flag itself.
  if (dashDash === -1 && argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h' || argv[0] === '--version')) {
    return { options, chain: [], help: argv[0] !== '--version', version: argv[0] === '--version', diagnostics };
  }
  const payload = tail.length > 0 ? tail[tail.length - 1] : undefined;
  const chain = tail.slice(0, -1);
  return { options, chain, ...(payload !== undefined ? { payload } : {}), help, version, diagnostics };
}
