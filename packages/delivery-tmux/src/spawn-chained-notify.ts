import { spawn } from 'node:child_process';
import { basename } from 'node:path';

/** What became of the chained program. */
export type ChainResult =
  | { readonly status: 'none' }
  | {
      readonly status: 'spawned';
      readonly pid: number | undefined;
      /**
       * Settles once the program has started ('spawn') or failed to ('error', reported through
       * `onError`). Await it before exiting, or a spawn failure goes unreported. Never rejects.
       */
      readonly started: Promise<void>;
    }
  | { readonly status: 'refused'; readonly reason: string };

/** Our own entry points: chaining one of them would run this program again for every turn. */
const SELF = /^agent-checkpoint-tmux(\.m?js)?$/;

/**
 * Run the user's previous `notify` program exactly as Codex would have: argv as given (no shell),
 * the same payload appended as the last argument, Codex's environment and working directory.
 *
 * It is spawned detached with stdio ignored and unreferenced, so it never blocks or outlives-blocks
 * us, and it keeps running after we exit. A spawn failure (missing program) is reported through
 * `onError`, never thrown.
 */
export function spawnChainedNotify(
  chain: readonly string[],
  payload: string,
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string; readonly onError?: (message: string) => void } = {},
): ChainResult {
  const [program, ...args] = chain;
  if (program === undefined || program === '') return { status: 'none' };
  if (chain.some((arg) => SELF.test(basename(arg)))) {
    return { status: 'refused', reason: 'the chained notify program is agent-checkpoint-tmux itself' };
  }
  try {
    const child = spawn(program, [...args, payload], {
      detached: true,
      stdio: 'ignore',
      shell: false,
      windowsHide: true,
      env: options.env ?? process.env,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    });
    const started = new Promise<void>((resolve) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        options.onError?.(`chained notify ${JSON.stringify(program)}: ${error.message}`);
        resolve();
      });
    });
    child.unref();
    return { status: 'spawned', pid: child.pid, started };
  } catch (error) {
    return { status: 'refused', reason: `chained notify ${JSON.stringify(program)}: ${(error as Error).message}` };
  }
}
