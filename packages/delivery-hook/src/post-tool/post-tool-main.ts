// The monitor's own bin bundle (agent-checkpoint-hook-monitor.cjs), started by the launcher for
// `agent-checkpoint-hook post-tool <agent>` before the main bundle would load: it runs after every
// tool call, so it carries only the cheap path (no zod, no code cache needed).
import { forTerminal, isAgentId, resolveStateDir } from '@agent-checkpoint/core/hot-path';
import { userConfigFile } from './user-config-file.ts';
import { DEFAULT_STDIN_MAX_BYTES, readHookOptions } from '../hook-options.ts';
import { readStdin } from '../read-stdin.ts';
import { currentDirectory } from '../run-cwd.ts';
import { actOnMonitorLazily, loadMonitorAfterGate } from './load-monitor-parts.ts';
import { runPostTool } from './run-post-tool.ts';

export async function mainPostTool(argv: readonly string[]): Promise<void> {
  const env = process.env;
  const agent = argv[0];
  const options = readHookOptions(env, argv.slice(1));
  const startedAt = Date.now();
  let finished = false;
  const finish = (output: string): void => {
    if (finished) return;
    finished = true;
    // Nothing to say (after most tool calls): exit without creating process.stdout, a stream whose
    // set-up is a measurable part of this hook's start-up. Otherwise exit only once stdout is flushed
    // (a pipe may take the write asynchronously).
    if (output === '') process.exit(0);
    process.stdout.write(output, () => process.exit(0));
  };
  // One line on a terminal, whatever it quotes (paths, the agent argument, a diagnostic from a file).
  const warn = (line: string): void => void process.stderr.write(`agent-checkpoint-hook: ${forTerminal(line, { keepLines: false })}\n`);
  const crash = (error: unknown): void => {
    warn(`post-tool: internal error, doing nothing: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    finish('');
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  if (!isAgentId(agent)) {
    warn(`post-tool: unknown agent ${JSON.stringify(agent ?? '(none)')}; expected claude, gemini, codex or qwen. Doing nothing.`);
    return finish('');
  }
  const timer = setTimeout(() => {
    warn(`post-tool: deadline of ${options.deadlineMs} ms reached; doing nothing`);
    finish('');
  }, options.deadlineMs);
  timer.unref();
  try {
    const input = await readStdin(process.stdin, { maxBytes: DEFAULT_STDIN_MAX_BYTES, timeoutMs: options.stdinTimeoutMs });
    const text = input.kind === 'complete' || input.kind === 'timeout' ? input.text : undefined;
    if (text === undefined || text.trim() === '') {
      warn(`post-tool: no usable payload on stdin (${input.kind}); doing nothing`);
      return finish('');
    }
    const result = await runPostTool(text, {
      agent,
      env,
      processCwd: currentDirectory(),
      stateDir: () => resolveStateDir({ env }),
      userConfigFile: userConfigFile(env),
      now: () => new Date(),
      deadlineAt: startedAt + options.deadlineMs,
      warn,
      act: actOnMonitorLazily,
      loadMonitor: loadMonitorAfterGate,
    });
    if (options.debug) warn(`post-tool: ${result.code}: ${result.detail} (${Date.now() - startedAt} ms)`);
    finish(result.output);
  } catch (error) {
    crash(error);
  }
}
