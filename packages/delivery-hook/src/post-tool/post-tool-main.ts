// The monitor's own bin bundle (agent-checkpoint-hook-monitor.cjs), started by the launcher for
// `agent-checkpoint-hook post-tool <agent>` before the main bundle would load: it runs after every
// tool call, so it carries only the cheap path (no zod, no code cache needed).
import { forTerminal, isAgentId, resolveStateDir } from '@agent-checkpoint/core/hot-path';
import { userConfigFile } from './user-config-file.ts';
import { DEFAULT_STDIN_MAX_BYTES, readHookOptions } from '../hook-options.ts';
import { TURN_END_AGENTS_TEXT } from '../hook-modes.ts';
import { runHookHarness } from '../hook-harness.ts';
import { currentDirectory } from '../run-cwd.ts';
import { actOnMonitorLazily, checkpointCommandLazily, loadMonitorAfterGate, recordMonitorAlertLazily, recordMonitorStateLazily } from './load-monitor-parts.ts';
import { runPostTool } from './run-post-tool.ts';

export async function mainPostTool(argv: readonly string[]): Promise<void> {
  const env = process.env;
  const agent = argv[0];
  const options = readHookOptions(env, argv.slice(1));
  const startedAt = Date.now();
  // One line on a terminal, whatever it quotes (paths, the agent argument, a diagnostic from a file).
  const warn = (line: string): void => void process.stderr.write(`agent-checkpoint-hook: ${forTerminal(line, { keepLines: false })}\n`);
  // Nothing to say (after most tool calls): exit without creating process.stdout, a stream whose
  // set-up is a measurable part of this hook's start-up. Otherwise exit only once stdout is flushed
  // (a pipe may take the write asynchronously).
  const write = (output: string): Promise<void> => (output === '' ? Promise.resolve() : new Promise((resolve) => void process.stdout.write(output, () => resolve())));
  if (!isAgentId(agent)) {
    warn(`post-tool: unknown agent ${JSON.stringify(agent ?? '(none)')}; expected ${TURN_END_AGENTS_TEXT}. Doing nothing.`);
    process.exit(0);
  }
  // The shared process contract in its lean form: no debug log, no state directory until the gate passes.
  await runHookHarness({ mode: 'post-tool', deadlineMs: options.deadlineMs, stdinTimeoutMs: options.stdinTimeoutMs, stdinMaxBytes: DEFAULT_STDIN_MAX_BYTES, fallback: '', warn, write }, async (text) => {
    if (text.trim() === '') {
      warn('post-tool: no usable payload on stdin (empty); doing nothing');
      return '';
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
      checkpointCommand: checkpointCommandLazily,
      recordAlert: recordMonitorAlertLazily,
      recordState: recordMonitorStateLazily,
    });
    if (options.debug) warn(`post-tool: ${result.code}: ${result.detail} (${Date.now() - startedAt} ms)`);
    return result.output;
  });
}
