import type { GeminiMessage } from './gemini-record.ts';
import { isRecord } from './gemini-record.ts';
import { withoutSessionStartContext } from './session-start-context.ts';

/**
 * The parts of a message's `content` (gemini-cli `PartListUnion`): a string, one part object, or an
 * array of parts and strings. Strings become text parts. Anything else yields no parts.
 */
export function contentParts(content: unknown): readonly Record<string, unknown>[] {
  if (typeof content === 'string') return [{ text: content }];
  if (Array.isArray(content)) {
    const parts: Record<string, unknown>[] = [];
    for (const item of content) {
      if (typeof item === 'string') parts.push({ text: item });
      else if (isRecord(item)) parts.push(item);
    }
    return parts;
  }
  return isRecord(content) ? [content] : [];
}

/** Concatenated text of the text parts, skipping thought parts (`thought: true`). */
export function partsText(parts: readonly Record<string, unknown>[]): string {
  let text = '';
  for (const part of parts) {
    if (typeof part['text'] === 'string' && part['thought'] !== true) text += part['text'];
  }
  return text;
}

function hasTextPart(parts: readonly Record<string, unknown>[]): boolean {
  return parts.some((part) => typeof part['text'] === 'string' && part['thought'] !== true);
}

function hasFunctionResponse(parts: readonly Record<string, unknown>[]): boolean {
  return parts.some((part) => isRecord(part['functionResponse']));
}

/**
 * The text of a `user` message that carries text and no tool results, else undefined. Tool results
 * are recorded as `user` messages made of `functionResponse` parts; they are never prompts.
 * `displayContent` is ignored here: in 0.61 it can even hold a stale `functionResponse` next to a
 * text `content` (the interactive sample's injected reason). A leading SessionStart context is not
 * the user's prompt and is left out: with it, the turn was not found from the AfterAgent payload's
 * prompt, and a handoff written in a resumed session was titled with the previous handoff.
 */
export function userTextOf(message: GeminiMessage): string | undefined {
  if (message.type !== 'user') return undefined;
  const parts = contentParts(message.raw['content']);
  if (!hasTextPart(parts) || hasFunctionResponse(parts)) return undefined;
  return withoutSessionStartContext(partsText(parts));
}

/**
 * Text of `displayContent` when it differs from `content` (e.g. `@file` expansion), used only as a
 * second chance when matching the hook payload's prompt.
 */
export function displayTextOf(message: GeminiMessage): string | undefined {
  const display = message.raw['displayContent'];
  if (display === undefined) return undefined;
  const parts = contentParts(display);
  return hasTextPart(parts) && !hasFunctionResponse(parts) ? partsText(parts) : undefined;
}

/** Every `functionResponse` part of a `user` message. */
export function functionResponsesOf(message: GeminiMessage): readonly Record<string, unknown>[] {
  if (message.type !== 'user') return [];
  const responses: Record<string, unknown>[] = [];
  for (const part of contentParts(message.raw['content'])) {
    const response = part['functionResponse'];
    if (isRecord(response)) responses.push(response);
  }
  return responses;
}

/**
 * The visible text of a `gemini` message: `content` is a string as appended live, but a parts array
 * once the CLI rewrote history (`$set.messages` from `updateMessagesFromHistory`).
 */
export function assistantTextOf(message: GeminiMessage): string {
  if (message.type !== 'gemini') return '';
  return partsText(contentParts(message.raw['content']));
}
