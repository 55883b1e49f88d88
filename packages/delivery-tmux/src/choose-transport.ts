import { detectQueueSupport, resolveCodexCommand, type CodexCommand } from './detect-codex-queue.ts';
import type { TransportChoice } from './parse-notify-argv.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * How the checkpoint will reach the Codex TUI.
 *
 * - `queue`: `codex queue --thread <id>` — Codex itself routes the message to the thread, so no pane
 *   can be mistaken for another session's (notify runs inside the shared daemon and its
 *   `TMUX_PANE` may belong to another TUI).
 * - `tmux`: typing into `$TMUX_PANE`, only for Codex builds without `codex queue`, and only into a
 *   pane proven to run this thread.
 * - `none`: `--transport=queue` was forced and this Codex has no queue.
 */
export type Transport =
  | { readonly kind: 'queue'; readonly codex: CodexCommand; readonly why: string }
  | { readonly kind: 'tmux'; readonly why: string }
  | { readonly kind: 'none'; readonly why: string };

export async function chooseTransport(options: {
  readonly env: Env;
  readonly stateDir?: string;
  readonly choice?: TransportChoice;
  readonly codexBin?: string;
}): Promise<Transport> {
  const choice = options.choice ?? 'auto';
  if (choice === 'tmux') return { kind: 'tmux', why: '--transport=tmux' };
  const codex = await resolveCodexCommand(options.env, options.codexBin);
  if (codex === undefined) {
    const why = options.codexBin !== undefined ? `--codex-bin ${options.codexBin} is not an executable file` : 'no `codex` executable on PATH';
    return choice === 'queue' ? { kind: 'none', why } : { kind: 'tmux', why: `${why}: cannot use \`codex queue\`` };
  }
  const support = await detectQueueSupport(codex, {
    env: options.env,
    ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}),
  });
  if (support.supported) return { kind: 'queue', codex, why: `${support.detail}${support.cached ? ' (cached)' : ''}` };
  return choice === 'queue' ? { kind: 'none', why: support.detail } : { kind: 'tmux', why: support.detail };
}
