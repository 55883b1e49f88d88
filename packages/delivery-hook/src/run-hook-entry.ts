import { isAgentId, resolveStateDir, type AgentId } from '@agent-checkpoint/core/hot-path';
import { createHookLogger } from './debug-log.ts';
import { encodeHookOutput } from './encode-hook-output.ts';
import { readHookOptions } from './hook-options.ts';
import { TURN_END_AGENTS_TEXT } from './hook-modes.ts';
import { codeCacheChannel, markCodeCoverage } from './launcher/code-cache-channel.ts';
import { PASS, type HookVerdict } from './hook-verdict.ts';
import { readStdin } from './read-stdin.ts';
import { runHook } from './run-hook.ts';
import { currentDirectory } from './run-cwd.ts';

/**
 * The hook entry point as a process: `agent-checkpoint-hook <agent>` (an id of hook-modes.ts's `TURN_END_AGENTS`).
 *
 * Contract with the agents, whatever happens: stdout is empty (the stop passes) or exactly one JSON
 * object in the agent's format; the exit code is 0 — on bad input, unknown agent, internal errors and
 * when the overall deadline passes (an agent that times a hook out skips it silently, so we pass
 * first). Diagnostics go to stderr only.
 */
export async function runHookEntry(
  agentArg: string | undefined,
  argv: readonly string[],
  writeStdout: (text: string) => Promise<void>,
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
  const agentName = agentArg ?? '(none)';
  const log = createHookLogger({ debug: options.debug, stateDir, agent: agentName });

  let finished = false;
  const finish = async (
    agent: AgentId | undefined,
    verdict: HookVerdict,
    note?: string,
    timings?: Readonly<Record<string, number>>,
  ): Promise<never> => {
    if (finished) return new Promise<never>(() => undefined);
    finished = true;
    const output = agent === undefined ? '' : encodeHookOutput(agent, verdict);
    if (verdict.kind === 'block') markCodeCoverage(2);
    if (note !== undefined) {
      const codeCache = codeCacheChannel()?.status ?? 'off';
      log.debug(note, { ms: Date.now() - startedAt, verdict: verdict.kind, codeCache, ...(timings ? { timings } : {}) });
    }
    await writeStdout(output);
    process.exit(0);
  };

  const onCrash = (error: unknown): void => {
    log.warn(`internal error, letting the stop pass: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    void finish(isAgentId(agentArg) ? agentArg : undefined, PASS);
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);

  if (!isAgentId(agentArg)) {
    log.warn(`unknown agent ${JSON.stringify(agentName)}; expected ${TURN_END_AGENTS_TEXT}. Letting the stop pass.`);
    return finish(undefined, PASS);
  }
  const agent = agentArg;

  const deadlineAt = startedAt + options.deadlineMs;
  const timer = setTimeout(() => {
    log.warn(`deadline of ${options.deadlineMs} ms reached; letting the stop pass`);
    void finish(agent, PASS);
  }, options.deadlineMs);
  // The timer must not keep a finished process alive; it still fires while work is pending.
  timer.unref();

  try {
    if (stateDir === undefined) throw new Error('cannot resolve the state directory (no home directory?)');
    const input = await readStdin(process.stdin, { maxBytes: options.stdinMaxBytes, timeoutMs: options.stdinTimeoutMs });
    const run = await runHook(input, { agent, env, processCwd: currentDirectory(), stateDir, deadlineAt, now: () => new Date(), log });
    if (run.code === 'invalid-payload' || run.code === 'stdin-unavailable' || run.code === 'state-unavailable') {
      log.warn(`${run.detail}; letting the stop pass`);
    }
    return await finish(agent, run.verdict, `${run.code}: ${run.detail}`, run.timings);
  } catch (error) {
    onCrash(error);
    return new Promise<never>(() => undefined);
  }
}

