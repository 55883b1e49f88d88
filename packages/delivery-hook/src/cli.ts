import { guardStdout } from './guard-stdout.ts';
import { runHookEntry } from './run-hook-entry.ts';

/** Management subcommands; loaded only when used, so the hook's hot path never evaluates them. */
const MANAGEMENT_COMMANDS = new Set(['off', 'on', 'status', 'help', '--help', '-h', 'version', '--version', '-v', 'install', 'uninstall', 'doctor', 'explain', 'trust']);

/** Context checkpoint commands (opt-in features); loaded only when used. */
const CONTEXT_COMMANDS = new Set(['session-start', 'pre-compact', 'resume-prompt', 'statusline', 'state']);

// No top-level await: the bundle is a CommonJS script so the launcher (launcher/start-hook.ts) can run
// it through a V8 code cache.
async function main(argv: readonly string[]): Promise<void> {
  // First thing: from here on only the hook's answer can reach stdout.
  const writeStdout = guardStdout();
  const [first, ...rest] = argv;
  if (first !== undefined && MANAGEMENT_COMMANDS.has(first)) {
    const { runManagementCommand } = await import('./commands/run-management-command.ts');
    const code = await runManagementCommand(first, rest, writeStdout);
    process.exit(code);
  } else if (first !== undefined && CONTEXT_COMMANDS.has(first)) {
    // session-start, pre-compact, statusline, resume-prompt, state (docs/context-checkpoints.md).
    const { runContextCommand } = await import('./context-commands/run-context-command.ts');
    await runContextCommand(first, rest, writeStdout);
  } else if (first === 'hook') {
    // `agent-checkpoint-hook hook <agent>`, the long form.
    await runHookEntry(rest[0], rest.slice(1), writeStdout);
  } else {
    await runHookEntry(first, rest, writeStdout);
  }
}

void main(process.argv.slice(2));
