import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';

/** The built bin, as agents run it (`node <abs path> <agent>`). Built by vitest's global setup. */
export const HOOK_BUNDLE = join(import.meta.dirname, '..', '..', 'dist', 'agent-checkpoint-hook.cjs');

/** What a hook process did. */
export interface HookProcessResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Options of {@link runHookBundle}. */
export interface RunHookBundleOptions {
  /** The bin to run; default the built {@link HOOK_BUNDLE}. */
  readonly bin?: string;
  readonly args: readonly string[];
  /** Text written to stdin, then stdin is closed. `{ keepOpen }` writes it and never closes. */
  readonly stdin?: string | Buffer | { readonly keepOpen: string };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** The test fails (and the process is killed) past this. Default 30 s. */
  readonly killAfterMs?: number;
  /**
   * Remove `cwd` (an empty directory) just before node starts in it, as in a removed worktree: a
   * shell started there runs `rmdir` on it and then execs node, whose working directory is then gone.
   */
  readonly removeCwdAtStart?: boolean;
}

/**
 * Run the bundled hook as a real process with real pipes. Never leaves the process behind: it is
 * killed at `killAfterMs`, and the result then says so through `signal`.
 */
export function runHookBundle(options: RunHookBundleOptions): Promise<HookProcessResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const cwd = options.cwd ?? process.cwd();
    const argv = [process.execPath, options.bin ?? HOOK_BUNDLE, ...options.args];
    const [file, ...args] = options.removeCwdAtStart === true ? ['/bin/sh', '-c', 'rmdir "$0" && exec "$@"', cwd, ...argv] : argv;
    const child = spawn(file!, args, {
      cwd,
      env: definedOnly(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // The hook may stop reading early (size cap): EPIPE on our side is expected then.
    child.stdin.on('error', () => undefined);
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 30_000);
    child.on('error', (error) => {
      clearTimeout(killer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
    const input = options.stdin;
    if (input === undefined) child.stdin.end();
    else if (typeof input === 'string' || Buffer.isBuffer(input)) child.stdin.end(input);
    else child.stdin.write(input.keepOpen);
  });
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** What a hook run's stdout said: the reason for the model (null: the stop passes) and the notice for the user. */
export interface HookOutput {
  readonly reason: string | null;
  /** `systemMessage`: shown to the user, never to the model; undefined when there is none. */
  readonly systemMessage: string | undefined;
}

/**
 * The hook's stdout contract: empty; or exactly one JSON object in the agent's shape —
 * `{"decision":<block|deny>,"reason":R}`, optionally with `"systemMessage":N`, or `{"systemMessage":N}`
 * alone (a pass with a user notice). N is one of our notices (`agent-checkpoint: …`). Throws (failing
 * the test) on anything else.
 */
export function parseHookOutput(agent: AgentId, stdout: string): HookOutput {
  if (stdout === '') return { reason: null, systemMessage: undefined };
  const parsed: unknown = JSON.parse(stdout);
  const decision = agent === 'gemini' ? 'deny' : 'block';
  const fail = (): never => {
    throw new Error(`stdout is not exactly {"decision":"${decision}","reason":…[,"systemMessage":…]} or {"systemMessage":…}: ${stdout}`);
  };
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail();
  const record = parsed as Record<string, unknown>;
  const keys = Object.keys(record).join(',');
  const notice = record['systemMessage'];
  if (keys.endsWith('systemMessage') && (typeof notice !== 'string' || !notice.startsWith('agent-checkpoint: '))) return fail();
  const systemMessage = typeof notice === 'string' ? notice : undefined;
  if (keys === 'systemMessage') return { reason: null, systemMessage };
  if (keys !== 'decision,reason' && keys !== 'decision,reason,systemMessage') return fail();
  if (record['decision'] !== decision || typeof record['reason'] !== 'string') return fail();
  return { reason: record['reason'], systemMessage };
}

/** {@link parseHookOutput}'s reason: what reached the model, or null for a pass (with or without a notice). */
export function parseHookStdout(agent: AgentId, stdout: string): string | null {
  return parseHookOutput(agent, stdout).reason;
}
