import { setTimeout as sleep } from 'node:timers/promises';
import type { CodexPane } from './find-codex-pane.ts';
import { runTmux } from './run-tmux.ts';

/**
 * What Codex's screen shows, judged from `capture-pane` text (codex-cli 0.169):
 * - `busy`: a turn is running — the status line `Working (3s • esc to interrupt)`;
 * - `idle`: no turn running and the composer is empty — its footer hint `? for shortcuts` is shown
 *   (Codex hides it as soon as the composer holds text);
 * - `occupied`: neither — the composer holds a draft, or a dialog/picker/approval prompt is open.
 */
export type ScreenState = 'busy' | 'idle' | 'occupied';

const BUSY_MARKER = 'esc to interrupt';
const EMPTY_COMPOSER_HINT = '? for shortcuts';
/** The footer is at the very bottom; the hint must be in the last few non-blank lines. */
const FOOTER_LINES = 4;

/** The two facts read off the screen. */
export interface ScreenFacts {
  /** A turn is running (`esc to interrupt` anywhere on screen: when in doubt, refuse). */
  readonly busy: boolean;
  /** The composer is empty (its footer hint is shown). Codex keeps the composer usable while busy. */
  readonly composerEmpty: boolean;
}

export function readScreen(screen: string): ScreenFacts {
  const footer = screen
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-FOOTER_LINES);
  return {
    busy: screen.includes(BUSY_MARKER),
    composerEmpty: footer.some((line) => line.includes(EMPTY_COMPOSER_HINT)),
  };
}

export function classifyScreen(screen: string): ScreenState {
  const facts = readScreen(screen);
  if (facts.busy) return 'busy';
  return facts.composerEmpty ? 'idle' : 'occupied';
}

/** Capture the visible screen of the pane; undefined when tmux fails. */
export async function capturePane(pane: CodexPane, timeoutMs?: number): Promise<string | undefined> {
  const result = await runTmux(pane.server, ['capture-pane', '-p', '-t', pane.paneId], timeoutMs !== undefined ? { timeoutMs } : {});
  return result.ok ? result.stdout : undefined;
}

export interface WaitIdleOptions {
  /** Keep trying until this many ms have passed (0: one attempt of two samples). */
  readonly waitMs: number;
  /** Minimum gap between the two samples that must both be idle. Default 250. */
  readonly sampleGapMs?: number;
  /** Pause between attempts. Default 100. */
  readonly pollMs?: number;
  /**
   * When an earlier capture already showed the pane idle (e.g. taken while the checkpoint was being
   * computed), its time: one more idle capture at least `sampleGapMs` later then suffices.
   */
  readonly idleSeenAt?: number;
  readonly tmuxTimeoutMs?: number;
}

export type WaitIdleResult =
  | { readonly ok: true; readonly samples: number }
  | { readonly ok: false; readonly reason: string; readonly lastState?: ScreenState };

/**
 * Wait until the pane shows an idle Codex with an empty composer on two consecutive samples at least
 * `sampleGapMs` apart (a single frame can be caught mid-redraw, or between a turn's end and the
 * next). The last sample is the one taken just now. Gives up after `waitMs`.
 */
export async function waitForIdlePrompt(pane: CodexPane, options: WaitIdleOptions): Promise<WaitIdleResult> {
  const gap = options.sampleGapMs ?? 250;
  const poll = options.pollMs ?? 100;
  const deadline = Date.now() + options.waitMs;
  let samples = 0;
  let lastState: ScreenState | undefined;
  let idleSince = options.idleSeenAt;
  for (;;) {
    const screen = await capturePane(pane, options.tmuxTimeoutMs);
    samples += 1;
    if (screen === undefined) return { ok: false, reason: `cannot capture pane ${pane.paneId}` };
    const now = Date.now();
    lastState = classifyScreen(screen);
    if (lastState === 'idle') {
      if (idleSince !== undefined && now - idleSince >= gap) return { ok: true, samples };
      idleSince ??= now;
      // The confirming sample is always taken, even past the deadline.
      await sleep(Math.max(0, idleSince + gap - now));
      continue;
    }
    idleSince = undefined;
    if (now + poll > deadline) break;
    await sleep(poll);
  }
  const reason =
    lastState === 'busy'
      ? 'Codex is busy (a turn is running)'
      : 'Codex is not at an empty prompt (the composer holds text, or a dialog is open)';
  return { ok: false, reason, lastState };
}
