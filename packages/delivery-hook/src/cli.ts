import { guardStdout } from './guard-stdout.ts';
import { hookModeOf } from './hook-modes.ts';
import { runHookEntry } from './run-hook-entry.ts';

/**
 * The modes agents run (hooks and the status line): dispatched here without the argument parser, so
 * they pay nothing for it and keep their contract (stdin payload, exit 0). Everything else — and a
 * hook mode asked for `--help`/`-h` — goes to the parser (commands/hook-cli.ts), loaded only then,
 * unless it is neither a command nor close to one (then it is a hook run with an unknown agent).
 * The modes are hook-modes.ts's table, which the help and the launcher read too.
 */
const wantsHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');

// No top-level await: the bundle is a CommonJS script so the launcher (launcher/start-hook.ts) can run
// it through a V8 code cache.
async function main(argv: readonly string[]): Promise<void> {
  // First thing: from here on only the hook's answer can reach stdout.
  const writeStdout = guardStdout();
  const [first, ...rest] = argv;
  const mode = wantsHelp(rest) ? undefined : hookModeOf(first)?.kind;
  switch (mode) {
    case 'turn-end':
      return runHookEntry(first, rest, writeStdout);
    case 'turn-end-long':
      // `agent-checkpoint-hook hook <agent>`, the long form.
      return runHookEntry(rest[0], rest.slice(1), writeStdout);
    case 'context': {
      // session-start, pre-compact, prompt-submit, statusline (docs/context-checkpoints.md).
      const { runContextCommand } = await import('./context-commands/run-context-command.ts');
      return runContextCommand(first!, rest, writeStdout);
    }
    case 'post-tool': {
      // The built bin runs its own monitor bundle for this (launcher/start-hook.ts); here for source runs.
      const { mainPostTool } = await import('./post-tool/post-tool-main.ts');
      return mainPostTool(rest);
    }
    case undefined: {
      const { isCliInvocation, runHookCli } = await import('./commands/hook-cli.ts');
      // An unknown agent (a misconfigured hook entry) still passes with exit 0, as a hook must.
      if (!isCliInvocation(argv, process.stdin.isTTY)) return runHookEntry(first, rest, writeStdout);
      process.exit(await runHookCli(argv, writeStdout));
    }
  }
}

void main(process.argv.slice(2));
