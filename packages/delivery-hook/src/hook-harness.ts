import { readStdin, type StdinReadResult } from './read-stdin.ts';

/** How one hook process runs: its limits, what it answers when it cannot, where its lines go. */
export interface HookHarnessSpec {
  /** The mode, for the stderr lines (`session-start`, `post-tool`, …). */
  readonly mode: string;
  /** Past this the process answers `fallback` and exits 0 (under the agents' hook timeouts). */
  readonly deadlineMs: number;
  readonly stdinTimeoutMs: number;
  readonly stdinMaxBytes: number;
  /**
   * The answer when the hook cannot give its own (a crash, the deadline, no payload): `''` for a hook
   * (the agent carries on), the status line's `n/a` line for the status line.
   */
  readonly fallback: string;
  /** One line for the user (stderr). */
  readonly warn: (line: string) => void;
  /** Write the answer; the process exits 0 once it settles. */
  readonly write: (output: string) => void | Promise<void>;
}

/**
 * The process contract of every hook mode (the context hooks, the status line and, in its own lean
 * bundle, the monitor after every tool call): stdout is the handler's answer or `fallback`, exactly
 * once; the exit code is 0 on bad input, internal errors and when the deadline passes; problems are
 * one stderr line each. Lean on purpose (stdin and timers only): the monitor's gate bundle runs it
 * after every tool call. The turn-end hook keeps its own runner (run-hook-entry.ts), which also
 * writes the debug log and the code cache.
 */
export async function runHookHarness(spec: HookHarnessSpec, handle: (payload: string) => Promise<string>): Promise<never> {
  let finished = false;
  const finish = async (output: string): Promise<never> => {
    if (!finished) {
      finished = true;
      await spec.write(output);
      process.exit(0);
    }
    return new Promise<never>(() => undefined);
  };
  const crash = (error: unknown): void => {
    spec.warn(`${spec.mode}: internal error, doing nothing: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    void finish(spec.fallback);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  const timer = setTimeout(() => {
    spec.warn(`${spec.mode}: deadline of ${spec.deadlineMs} ms reached; doing nothing`);
    void finish(spec.fallback);
  }, spec.deadlineMs);
  timer.unref();
  try {
    const input = await readStdin(process.stdin, { maxBytes: spec.stdinMaxBytes, timeoutMs: spec.stdinTimeoutMs });
    const text = payloadText(input);
    if (text === undefined) {
      spec.warn(`${spec.mode}: no usable payload on stdin (${input.kind}); doing nothing`);
      return await finish(spec.fallback);
    }
    return await finish(await handle(text));
  } catch (error) {
    crash(error);
    return new Promise<never>(() => undefined);
  }
}

/** The payload text, when stdin gave one (a timed-out read may still hold a complete payload). */
function payloadText(input: StdinReadResult): string | undefined {
  if (input.kind === 'complete') return input.text;
  if (input.kind === 'timeout' && input.text.trim() !== '') return input.text;
  return undefined;
}
