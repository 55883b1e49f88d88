import { CONFIRM_QUEUE_COMMAND } from './queue-confirmer.ts';
import { runNotify } from './run-notify.ts';

/**
 * Set-up commands for people (`install`, `uninstall`, `doctor`, `help`, `version`, `--help`, `-v`,
 * `--version`, `-V` alone, and near misses of the commands: exit 2 with "did you mean"), on the CLI
 * library, loaded only for them. Codex never passes one of these words first (its last argument is
 * always the JSON payload, options are `--name=value`), so they cannot be confused with a notify run,
 * which stays on its own small parser (parse-notify-argv.ts) without loading the library.
 */
const SETUP_WORDS = new Set(['install', 'uninstall', 'doctor', 'help', 'version', '-h', '--help', '-v', '--version', '-V']);
const [setupCommand] = process.argv.slice(2);
if (setupCommand !== undefined && (SETUP_WORDS.has(setupCommand) || /^[a-z][a-z-]*$/i.test(setupCommand))) {
  const { isSetupInvocation, runTmuxCli } = await import('./setup/tmux-cli.ts');
  if (isSetupInvocation(process.argv.slice(2))) process.exit(await runTmuxCli(process.argv.slice(2)));
}

if (setupCommand === CONFIRM_QUEUE_COMMAND) {
  // The detached confirmer of one queued checkpoint (started by a notify run, job JSON on stdin).
  const { runQueueConfirmerCommand } = await import('./run-queue-confirmer-command.ts');
  process.exit(await runQueueConfirmerCommand(process.stdin, process.env));
}

/**
 * `agent-checkpoint-tmux`: the Codex `notify` program. Always exits 0 (Codex ignores the status,
 * and nothing must be left half-done by a crash); diagnostics go to stderr.
 */
const HARD_DEADLINE_MS = 30_000;

function bail(message: string): void {
  try {
    process.stderr.write(`agent-checkpoint-tmux: ${message}\n`);
  } finally {
    process.exit(0);
  }
}

process.on('uncaughtException', (error) => bail(`internal error: ${error.message}`));
process.on('unhandledRejection', (error) => bail(`internal error: ${error instanceof Error ? error.message : String(error)}`));
// A wedged tmux or git cannot keep the process alive: every call has its own timeout, this is the net.
setTimeout(() => bail(`gave up after ${HARD_DEADLINE_MS} ms`), HARD_DEADLINE_MS).unref();

const result = await runNotify(process.argv.slice(2), {
  env: process.env,
  // Loaded lazily: a title thread or a run outside tmux never evaluates the engine or the reader.
  runTurnEnd: async (event) => (await import('@agent-checkpoint/core')).runTurnEnd(event),
  createReader: async () => (await import('@agent-checkpoint/transcript-codex')).createCodexTranscriptReader(),
});
if (process.env['AGENT_CHECKPOINT_TMUX_REPORT'] === '1') {
  // Machine-readable outcome on stdout, for tests and `doctor`-style checks. Codex ignores stdout.
  process.stdout.write(`${JSON.stringify(result.outcome)}\n`);
}
process.exit(0);
