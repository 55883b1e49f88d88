import { runAuxHook } from '../aux-hook/run-aux-hook.ts';

/**
 * Run one context hook mode and exit. `session-start`, `pre-compact` and `prompt-submit` are hooks
 * (exit 0, agent-valid stdout, whatever happens); `statusline` always exits 0 too. Each is imported
 * only when used. (`resume-prompt` and `state` are commands: commands/hook-cli.ts parses them.)
 */
export async function runContextCommand(command: string, args: readonly string[], write: (text: string) => Promise<void>): Promise<never> {
  switch (command) {
    case 'session-start': {
      const { runSessionStart } = await import('../session-start/session-start-adapter.ts');
      return runAuxHook('session-start', args[0], args.slice(1), write, runSessionStart);
    }
    case 'pre-compact': {
      const { runPreCompact } = await import('../pre-compact/pre-compact-adapter.ts');
      return runAuxHook('pre-compact', args[0], args.slice(1), write, runPreCompact);
    }
    case 'prompt-submit': {
      const { runPromptSubmit } = await import('../prompt-submit/prompt-submit-adapter.ts');
      return runAuxHook('prompt-submit', args[0], args.slice(1), write, runPromptSubmit);
    }
    case 'statusline': {
      const { runStatusline } = await import('../statusline/run-statusline.ts');
      return runStatusline(write);
    }
    default:
      process.stderr.write(`agent-checkpoint: unknown context command ${JSON.stringify(command)}\n`);
      return process.exit(2);
  }
}
