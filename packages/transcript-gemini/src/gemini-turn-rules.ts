import { isDeliveredCheckpoint, type OwnCheckpointRule } from '@agent-checkpoint/core';
import type { GeminiMessage } from './gemini-record.ts';
import { displayTextOf, userTextOf } from './gemini-message-content.ts';

/**
 * User-role texts the CLI writes by itself. They are never a turn boundary:
 * - `<session_context>`: the environment preamble at session start (`$set.messages`);
 * - `System: Potential loop detected…`: the content-loop detector's injection;
 * - `Please continue.`: the next-speaker check's nudge (off by default);
 * - `<state_snapshot>`: the summary that chat compression puts in place of old history.
 */
const CLI_INJECTION_PREFIXES = ['<session_context>', 'System: Potential loop detected', '<state_snapshot>'] as const;
const CLI_INJECTION_EXACT = ['Please continue.'] as const;

export function isCliInjection(text: string): boolean {
  const trimmed = text.trim();
  return (
    CLI_INJECTION_PREFIXES.some((prefix) => trimmed.startsWith(prefix)) ||
    CLI_INJECTION_EXACT.some((exact) => trimmed === exact)
  );
}

/**
 * Our checkpoints, by prefix alone (a plain string) or by the session's delivery record (an
 * {@link OwnCheckpointRule} with `delivered`). Gemini records a deny reason as an ordinary user
 * message, with nothing structural to tell it from a prompt the user typed with our prefix.
 */
export type OwnCheckpoints = string | OwnCheckpointRule;

/**
 * True when `text` is one of our own checkpoint messages: with a delivery record, exactly a message
 * the session delivered; without one, a message starting with the prefix. An empty prefix matches
 * nothing.
 */
export function isOwnCheckpoint(text: string, own: OwnCheckpoints): boolean {
  if (typeof own === 'string') return own.length > 0 && text.trimStart().startsWith(own);
  return isDeliveredCheckpoint(text, own);
}

/** Decides whether a message opens the turn. */
export interface BoundaryRule {
  /** `hint`: matches the hook payload's prompt; `fallback`: any genuine-looking user prompt. */
  readonly kind: 'hint' | 'fallback';
  readonly isBoundary: (message: GeminiMessage) => boolean;
}

/**
 * The fallback rule: the last `user` text message (no tool results) that is neither one of our
 * checkpoints nor a CLI injection.
 */
export function fallbackRule(checkpointPrefix: OwnCheckpoints): BoundaryRule {
  return {
    kind: 'fallback',
    isBoundary: (message) => {
      const text = userTextOf(message);
      return text !== undefined && !isOwnCheckpoint(text, checkpointPrefix) && !isCliInjection(text);
    },
  };
}

/**
 * The hint rule: the last `user` text message whose text starts with the AfterAgent payload's
 * `prompt`, which keeps the original request on every retry after a block (the block reason itself is
 * recorded as an ordinary user message). Leading whitespace is ignored on both sides, and the
 * `displayContent` text is tried too (`@file` expansion changes `content`).
 */
export function hintRule(prompt: string): BoundaryRule {
  const wanted = prompt.trimStart();
  return {
    kind: 'hint',
    isBoundary: (message) => {
      const text = userTextOf(message);
      if (text === undefined) return false;
      if (text.trimStart().startsWith(wanted)) return true;
      const display = displayTextOf(message);
      return display !== undefined && display.trimStart().startsWith(wanted);
    },
  };
}

/**
 * The rule to search with first: the hint when there is a usable one. A hint that is empty, or that
 * is itself one of our checkpoints (a BeforeAgent payload carries the block reason as `prompt`), is
 * ignored.
 */
export function primaryRule(hintPrompt: string | undefined, checkpointPrefix: OwnCheckpoints): BoundaryRule {
  if (hintPrompt !== undefined && hintPrompt.trim().length > 0 && !isOwnCheckpoint(hintPrompt, checkpointPrefix)) {
    return hintRule(hintPrompt);
  }
  return fallbackRule(checkpointPrefix);
}
