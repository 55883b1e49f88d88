import { AGENT_IDS } from '@agent-checkpoint/core/hot-path';
import { guardStdout } from './guard-stdout.ts';
import { runHookEntry } from './run-hook-entry.ts';

/**
 * The modes agents run (hooks and the status line): dispatched here without the argument parser, so
 * they pay nothing for it and keep their contract (stdin payload, exit 0). Everything else — and a
 * hook mode asked for `--help`/`-h` — goes to the parser (commands/hook-cli.ts), loaded only then,
 * unless it is neither a command nor close to one (then it is a hook run with an unknown agent).
 */
type HookMode = 'turn-end' | 'hook' | 'context' | 'post-tool';
const HOOK_MODES: Readonly<Record<string, HookMode>> = {
  // Every agent id is a turn-end mode (the profiles know the rest; see src/agents/).
  ...Object.fromEntries(AGENT_IDS.map((agent) => [agent, 'turn-end' as const])),
  hook: 'hook',
  'session-start': 'context',
  'pre-compact': 'context',
  'prompt-submit': 'context',
  statusline: 'context',
  // The built bin runs its own monitor bundle for this (launcher/start-hook.ts); here for source runs.
  'post-tool': 'post-tool',
};

const wantsHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');

// No top-level await: the bundle is a CommonJS script so the launcher (launcher/start-hook.ts) can run
// it through a V8 code cache.
async function main(argv: readonly string[]): Promise<void> {
  // First thing: from here on only the hook's answer can reach stdout.
  const writeStdout = guardStdout();
  const [first, ...rest] = argv;
  const mode = first === undefined || !Object.hasOwn(HOOK_MODES, first) || wantsHelp(rest) ? undefined : HOOK_MODES[first];
  switch (mode) {
    case 'turn-end':
      return runHookEntry(first, rest, writeStdout);
    case 'hook':
      // `agent-checkpoint-hook hook <agent>`, the long form.
      return runHookEntry(rest[0], rest.slice(1), writeStdout);
    case 'context': {
      // session-start, pre-compact, prompt-submit, statusline (docs/context-checkpoints.md).
      const { runContextCommand } = await import('./context-commands/run-context-command.ts');
      return runContextCommand(first!, rest, writeStdout);
    }
    case 'post-tool': {
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
