import type { UserTextRecord } from './codex-record.ts';

/**
 * What a user-role message is.
 * - `genuine`: the person typed it (a prompt, or a steer while the agent was busy).
 * - `checkpoint`: our own injected checkpoint (starts with the checkpoint prefix), e.g. typed into the
 *   TUI over tmux. Never a turn boundary.
 * - `context`: harness-injected context that Codex sends with role `user` (AGENTS.md instructions,
 *   `<environment_context>`, `<user_instructions>`, `<turn_aborted>`, skills…). Not a message anyone
 *   sent; ignored for turns and for `lastUserMessage`.
 */
export type UserTextClass = 'genuine' | 'checkpoint' | 'context';

/** Leading markers of harness-generated user-role text (any version). */
const CONTEXT_PREFIXES = ['# AGENTS.md instructions for ', '<environment_context>', '<user_instructions>', '<INSTRUCTIONS>'];
/** A message that is entirely one XML-like element (`<turn_aborted>…</turn_aborted>`, `<skill>…</skill>`). */
const WHOLE_ELEMENT = /^<([a-z][a-z0-9_]*)(?:\s[^>]*)?>[\s\S]*<\/\1>$/;

export function classifyUserText(record: UserTextRecord, checkpointPrefix: string): UserTextClass {
  const text = record.text.trim();
  if (record.provenance.length > 0 && !record.provenance.includes('user')) return 'context';
  if (CONTEXT_PREFIXES.some((prefix) => text.startsWith(prefix))) return 'context';
  // `UserMessage` items are exactly what the person submitted; the element test only guards the
  // `response_item` form, where harness context shares the user role.
  if (record.source !== 'item' && WHOLE_ELEMENT.test(text)) return 'context';
  // A typed message is ours only when the session delivered exactly it (`ours`, set by the reader);
  // a prompt that merely starts with our prefix is the user's.
  if (record.ours ?? startsWithPrefix(record.text, checkpointPrefix)) return 'checkpoint';
  return 'genuine';
}

/**
 * True when `text` starts with our checkpoint prefix. Leading whitespace is ignored (pasting may add
 * it); an empty prefix never matches, so a misconfiguration cannot turn every prompt into "ours".
 * The XML-decoded form is checked too: the `<hook_prompt>` body the model receives is XML-escaped.
 */
export function startsWithPrefix(text: string, checkpointPrefix: string): boolean {
  const prefix = checkpointPrefix.trim();
  if (prefix === '') return false;
  const trimmed = text.trimStart();
  return trimmed.startsWith(prefix) || decodeXmlEntities(trimmed).startsWith(prefix);
}

const HOOK_PROMPT = /<hook_prompt(?:\s[^>]*)?>([\s\S]*?)<\/hook_prompt>/g;

/**
 * The inner texts of a `<hook_prompt hook_run_id="…">…</hook_prompt>` user message (Stop-hook feedback),
 * XML-decoded, or undefined when the text is not made of hook prompts.
 */
export function parseHookPromptText(text: string): string[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('<hook_prompt')) return undefined;
  const texts = [...trimmed.matchAll(HOOK_PROMPT)].map((match) => decodeXmlEntities(match[1] ?? ''));
  return texts.length > 0 ? texts : undefined;
}

/** Decode the five XML entities and numeric references Codex uses when it escapes hook prompt bodies. */
export function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (whole, entity: string) => {
    switch (entity) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default: {
        const code = entity.startsWith('#x') ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
        return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
    }
  });
}
