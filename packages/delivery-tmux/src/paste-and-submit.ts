import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CodexPane } from './find-codex-pane.ts';
import { runTmux } from './run-tmux.ts';
import { capturePane, readScreen, type ScreenFacts } from './verify-idle-prompt.ts';

/** Timings of the paste → Enter → confirm sequence, in milliseconds. */
export interface PasteTimings {
  /** Minimum pause between the paste and the first Enter. Default 300. */
  readonly enterDelayMs?: number;
  /** Longest wait for the pasted text to show in the composer. Default 1000. */
  readonly pasteSeenTimeoutMs?: number;
  /** Longest wait for the composer to empty after each Enter. Default 2000. */
  readonly confirmTimeoutMs?: number;
  /** Screen polling interval. Default 50. */
  readonly pollMs?: number;
  /** Time limit of each tmux call. Default 2000. */
  readonly tmuxTimeoutMs?: number;
}

export type PasteResult =
  | { readonly ok: true; readonly enterPresses: 1 | 2 }
  | {
      readonly ok: false;
      readonly reason: string;
      /** True when text may have reached the pane (the user may find it in the composer). */
      readonly typed: boolean;
    };

/**
 * Type `text` into Codex's composer and submit it as one message.
 *
 * Why this sequence (measured on codex-cli 0.169, see docs): typed characters followed quickly by
 * Enter are treated as a paste burst and the Enter is swallowed, and LF characters in typed text
 * insert newlines rather than submitting. A bracketed paste (`paste-buffer -p`) arrives as one
 * insertion whatever it contains, and a separate Enter key then submits it.
 *
 * 1. `load-buffer` the text from stdin into a uniquely named buffer (no shell, no temp file, nothing
 *    on a command line);
 * 2. `paste-buffer -p -d -r`: bracketed paste, buffer deleted afterwards; `-r` keeps LF as LF so that
 *    even if the program had not enabled bracketed paste, no CR (= Enter) would come from the text;
 * 3. wait for the composer to show text, and at least `enterDelayMs` since the paste;
 * 4. `send-keys Enter`, then poll until the composer is empty again (Codex's `? for shortcuts` hint
 *    is back); if not within `confirmTimeoutMs`, press Enter once more and poll again.
 *
 * The caller has already verified the pane and that the composer was empty. `text` must already be
 * sanitized (see `sanitizeTypedText`).
 */
export async function pasteAndSubmit(pane: CodexPane, text: string, timings: PasteTimings = {}): Promise<PasteResult> {
  const enterDelayMs = timings.enterDelayMs ?? 300;
  const pasteSeenTimeoutMs = timings.pasteSeenTimeoutMs ?? 1000;
  const confirmTimeoutMs = timings.confirmTimeoutMs ?? 2000;
  const pollMs = timings.pollMs ?? 50;
  const tmuxOptions = timings.tmuxTimeoutMs !== undefined ? { timeoutMs: timings.tmuxTimeoutMs } : {};
  const buffer = `agent-checkpoint-${process.pid}-${randomBytes(6).toString('hex')}`;

  const loaded = await runTmux(pane.server, ['load-buffer', '-b', buffer, '-'], { ...tmuxOptions, input: text });
  if (!loaded.ok) {
    await runTmux(pane.server, ['delete-buffer', '-b', buffer], tmuxOptions);
    return { ok: false, reason: loaded.failure ?? 'load-buffer failed', typed: false };
  }
  const pasted = await runTmux(pane.server, ['paste-buffer', '-p', '-d', '-r', '-b', buffer, '-t', pane.paneId], tmuxOptions);
  const pastedAt = Date.now();
  if (!pasted.ok) {
    await runTmux(pane.server, ['delete-buffer', '-b', buffer], tmuxOptions);
    return { ok: false, reason: pasted.failure ?? 'paste-buffer failed', typed: false };
  }

  const seen = await pollScreen(pane, (facts) => !facts.composerEmpty, pasteSeenTimeoutMs, pollMs, timings.tmuxTimeoutMs);
  const wait = pastedAt + enterDelayMs - Date.now();
  if (wait > 0) await sleep(wait);

  for (const press of [1, 2] as const) {
    const entered = await runTmux(pane.server, ['send-keys', '-t', pane.paneId, 'Enter'], tmuxOptions);
    if (!entered.ok) return { ok: false, reason: entered.failure ?? 'send-keys failed', typed: true };
    const emptied = await pollScreen(pane, (facts) => facts.composerEmpty, confirmTimeoutMs, pollMs, timings.tmuxTimeoutMs);
    if (emptied) {
      if (!seen) {
        return { ok: false, reason: 'the pasted text never showed in the composer; submission unconfirmed', typed: true };
      }
      return { ok: true, enterPresses: press };
    }
  }
  return {
    ok: false,
    reason: `the composer did not empty after two Enter presses; the message is left in the composer`,
    typed: true,
  };
}

/** Poll the screen until `done(state)` or the timeout. */
async function pollScreen(
  pane: CodexPane,
  done: (facts: ScreenFacts) => boolean,
  timeoutMs: number,
  pollMs: number,
  tmuxTimeoutMs: number | undefined,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = await capturePane(pane, tmuxTimeoutMs);
    if (screen !== undefined && done(readScreen(screen))) return true;
    if (Date.now() >= deadline) return false;
    await sleep(pollMs);
  }
}
