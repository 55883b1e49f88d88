import { paneStateProblem, readPaneState, type CodexPane } from './find-codex-pane.ts';
import { pasteAndSubmit, type PasteTimings } from './paste-and-submit.ts';
import { sanitizeTypedText } from './sanitize-typed-text.ts';
import { waitForIdlePrompt } from './verify-idle-prompt.ts';

export interface DeliverOptions extends PasteTimings {
  /** Longest wait for Codex to be idle with an empty composer. Default 2000. */
  readonly idleWaitMs?: number;
  /** Gap between the two idle samples. Default 250. */
  readonly idleSampleGapMs?: number;
  /** Time of an earlier capture that showed the pane idle (see `WaitIdleOptions.idleSeenAt`). */
  readonly idleSeenAt?: number;
  /**
   * Last word before typing, called once every check has passed: resolve to a reason to refuse, or
   * undefined to go ahead. The notify route claims its loop-guard slot here, so a refused or busy
   * pane never uses up the turn's checkpoint.
   */
  readonly beforePaste?: () => Promise<string | undefined>;
}

/** What happened to one message. */
export type DeliveryResult =
  | { readonly status: 'delivered'; readonly text: string; readonly enterPresses: 1 | 2 }
  /** Nothing was typed. */
  | { readonly status: 'refused'; readonly reason: string }
  /** Typing started and did not complete as confirmed. */
  | { readonly status: 'failed'; readonly reason: string; readonly typed: boolean };

/**
 * Type `message` into a verified Codex pane and submit it, failing closed.
 *
 * The message is sanitized (no control characters or escape sequences can reach the pane), then the
 * pane must show an idle Codex with an empty composer on two samples, and its tmux state is read
 * again just before pasting (the user may have entered copy mode meanwhile).
 */
export async function deliverToPane(pane: CodexPane, message: string, options: DeliverOptions = {}): Promise<DeliveryResult> {
  // Codex trims trailing newlines on submit; trimming here keeps "what we typed" equal to "what it got".
  const text = sanitizeTypedText(message).replace(/\s+$/, '');
  if (text.trim() === '') return { status: 'refused', reason: 'the message is empty after sanitizing' };

  const idle = await waitForIdlePrompt(pane, {
    waitMs: options.idleWaitMs ?? 2000,
    ...(options.idleSampleGapMs !== undefined ? { sampleGapMs: options.idleSampleGapMs } : {}),
    ...(options.idleSeenAt !== undefined ? { idleSeenAt: options.idleSeenAt } : {}),
    ...(options.tmuxTimeoutMs !== undefined ? { tmuxTimeoutMs: options.tmuxTimeoutMs } : {}),
  });
  if (!idle.ok) return { status: 'refused', reason: idle.reason };

  const state = await readPaneState(pane.server, pane.paneId, options.tmuxTimeoutMs);
  if (!state.ok) return { status: 'refused', reason: state.reason };
  const problem = paneStateProblem(state.state);
  if (problem) return { status: 'refused', reason: problem };
  if (state.state.panePid !== pane.panePid) return { status: 'refused', reason: `pane ${pane.paneId} was respawned` };

  const veto = await options.beforePaste?.();
  if (veto !== undefined) return { status: 'refused', reason: veto };

  const pasted = await pasteAndSubmit(pane, text, options);
  if (pasted.ok) return { status: 'delivered', text, enterPresses: pasted.enterPresses };
  return pasted.typed ? { status: 'failed', reason: pasted.reason, typed: true } : { status: 'refused', reason: pasted.reason };
}
