import { isTruthyEnv } from '@agent-checkpoint/core/hot-path';

/** Tunables of one hook run, from the environment (and `--debug`). */
export interface HookOptions {
  /**
   * Hard overall deadline: past it the hook prints nothing (the stop passes) and exits 0. It must stay
   * under the agents' hook timeouts, or the agent kills the hook and silently skips it.
   */
  readonly deadlineMs: number;
  /** Longest wait for the payload on stdin. */
  readonly stdinTimeoutMs: number;
  /** Payloads larger than this are refused. */
  readonly stdinMaxBytes: number;
  /** Also log every decision to stderr and `<stateDir>/debug.log`. */
  readonly debug: boolean;
}

export const DEADLINE_ENV = 'AGENT_CHECKPOINT_HOOK_DEADLINE_MS';
export const STDIN_TIMEOUT_ENV = 'AGENT_CHECKPOINT_STDIN_TIMEOUT_MS';
export const DEBUG_ENV = 'AGENT_CHECKPOINT_DEBUG';

export const DEFAULT_DEADLINE_MS = 8000;
export const DEFAULT_STDIN_TIMEOUT_MS = 3000;
export const DEFAULT_STDIN_MAX_BYTES = 8 * 1024 * 1024;

/** Read the options; malformed numbers fall back to the defaults. */
export function readHookOptions(env: Readonly<Record<string, string | undefined>>, argv: readonly string[]): HookOptions {
  const deadlineMs = positiveInt(env[DEADLINE_ENV], DEFAULT_DEADLINE_MS, 100, 600_000);
  return {
    deadlineMs,
    // Not clamped to the deadline: the deadline timer ends the run whichever comes first.
    stdinTimeoutMs: positiveInt(env[STDIN_TIMEOUT_ENV], DEFAULT_STDIN_TIMEOUT_MS, 10, 600_000),
    stdinMaxBytes: DEFAULT_STDIN_MAX_BYTES,
    debug: argv.includes('--debug') || isTruthyEnv(env[DEBUG_ENV]),
  };
}

function positiveInt(raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return fallback;
  return Math.min(Math.max(Number(raw.trim()), min), max);
}
