import { isAgentId, resolveStateDir, type AgentId } from '@agent-checkpoint/core';
import { createHookLogger, type HookLogger } from '../debug-log.ts';
import { readHookOptions } from '../hook-options.ts';
import { readStdin, type StdinReadResult } from '../read-stdin.ts';
import { currentDirectory } from '../run-cwd.ts';

/** What an auxiliary hook (SessionStart, PreCompact) decided: its exact stdout and why. */
export interface AuxHookResult {
  /** Exactly what goes to stdout: `''` or one JSON object in the agent's format. */
  readonly output: string;
  /** A stable code for the debug log and tests (`injected`, `no-handoff`, `written`…). */
  readonly code: string;
  readonly detail: string;
}

/** What a handler gets besides the payload text. */
export interface AuxHookContext {
  readonly agent: AgentId;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Fallback when the payload has no usable `cwd`; undefined when the process's directory is gone. */
  readonly processCwd: string | undefined;
  readonly stateDir: string;
  /** Epoch ms after which nothing more may start (the deadline timer ends the run there). */
  readonly deadlineAt: number;
  readonly now: () => Date;
  readonly log: HookLogger;
}

/** A hook handler: payload text in, stdout out. May throw (the runner turns that into empty output). */
export type AuxHookHandler = (text: string, context: AuxHookContext) => Promise<AuxHookResult>;

/**
 * The process contract of the context hooks (`session-start`, `pre-compact`), the same as the Stop
 * hook's: stdout is empty or exactly one JSON object valid for the agent's event; the exit code is 0
 * on bad input, unknown agents, internal errors and when the overall deadline passes (empty output
 * then); diagnostics go to stderr only (one line for real problems, more with `--debug`).
 */
export async function runAuxHook(
  event: string,
  agentArg: string | undefined,
  argv: readonly string[],
  writeStdout: (text: string) => Promise<void>,
  handler: AuxHookHandler,
): Promise<never> {
  const env = process.env;
  const options = readHookOptions(env, argv);
  const startedAt = Date.now();
  let stateDir: string | undefined;
  try {
    stateDir = resolveStateDir({ env });
  } catch {
    stateDir = undefined;
  }
  const log = createHookLogger({ debug: options.debug, stateDir, agent: agentArg ?? '(none)' });

  let finished = false;
  const finish = async (output: string, note?: string): Promise<never> => {
    if (finished) return new Promise<never>(() => undefined);
    finished = true;
    if (note !== undefined) log.debug(`${event}: ${note}`, { ms: Date.now() - startedAt });
    await writeStdout(output);
    process.exit(0);
  };
  const onCrash = (error: unknown): void => {
    log.warn(`${event}: internal error, doing nothing: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    void finish('');
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);

  if (!isAgentId(agentArg)) {
    log.warn(`${event}: unknown agent ${JSON.stringify(agentArg ?? '(none)')}; expected claude, gemini, codex or qwen. Doing nothing.`);
    return finish('');
  }
  const timer = setTimeout(() => {
    log.warn(`${event}: deadline of ${options.deadlineMs} ms reached; doing nothing`);
    void finish('');
  }, options.deadlineMs);
  timer.unref();

  try {
    if (stateDir === undefined) throw new Error('cannot resolve the state directory (no home directory?)');
    const input = await readStdin(process.stdin, { maxBytes: options.stdinMaxBytes, timeoutMs: options.stdinTimeoutMs });
    const text = payloadText(input);
    if (text === undefined) {
      log.warn(`${event}: no usable payload on stdin (${input.kind}); doing nothing`);
      return await finish('');
    }
    const result = await handler(text, {
      agent: agentArg,
      env,
      processCwd: currentDirectory(),
      stateDir,
      deadlineAt: startedAt + options.deadlineMs,
      now: () => new Date(),
      log,
    });
    return await finish(result.output, `${result.code}: ${result.detail}`);
  } catch (error) {
    onCrash(error);
    return new Promise<never>(() => undefined);
  }
}

/** The payload text, when stdin gave one (a timed-out read may still hold a complete payload). */
function payloadText(input: StdinReadResult): string | undefined {
  if (input.kind === 'complete') return input.text;
  if (input.kind === 'timeout' && input.text.trim() !== '') return input.text;
  return undefined;
}

/** Parse stdin text as a JSON object, or say why it is not one. */
export function parseJsonPayload(text: string): { readonly json: unknown } | { readonly error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'empty stdin (expected the hook payload JSON)' };
  try {
    return { json: JSON.parse(trimmed) };
  } catch (error) {
    return { error: `stdin is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
