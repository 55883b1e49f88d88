import { isAgentId, resolveStateDir, type AgentId } from '@agent-checkpoint/core';
import { createHookLogger, type HookLogger } from '../debug-log.ts';
import { readHookOptions } from '../hook-options.ts';
import { TURN_END_AGENTS_TEXT } from '../hook-modes.ts';
import { runHookHarness } from '../hook-harness.ts';
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
 * A context hook (`session-start`, `pre-compact`, `prompt-submit`) as a process: the shared harness
 * (hook-harness.ts: stdout empty or exactly one JSON object valid for the agent's event, exit 0 on bad
 * input, unknown agents, internal errors and past the deadline, one stderr line per problem) plus
 * what these hooks add: the agent argument, the state directory and the debug log (`--debug`).
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
  const spec = { mode: event, deadlineMs: options.deadlineMs, stdinTimeoutMs: options.stdinTimeoutMs, stdinMaxBytes: options.stdinMaxBytes, fallback: '', warn: (line: string) => log.warn(line), write: writeStdout };
  if (!isAgentId(agentArg)) {
    log.warn(`${event}: unknown agent ${JSON.stringify(agentArg ?? '(none)')}; expected ${TURN_END_AGENTS_TEXT}. Doing nothing.`);
    await writeStdout('');
    return process.exit(0);
  }
  return runHookHarness(spec, async (text) => {
    if (stateDir === undefined) throw new Error('cannot resolve the state directory (no home directory?)');
    const result = await handler(text, { agent: agentArg, env, processCwd: currentDirectory(), stateDir, deadlineAt: startedAt + options.deadlineMs, now: () => new Date(), log });
    log.debug(`${event}: ${result.code}: ${result.detail}`, { ms: Date.now() - startedAt });
    return result.output;
  });
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
