/**
 * A SessionStart hook's additional context, which Gemini CLI 0.61 prepends to the session's first
 * prompt as `<hook_context>…</hook_context>` and a blank line: in the BeforeAgent payload's `prompt`
 * and in the recorded user message alike. `<` and `>` inside are escaped by Gemini, so the first
 * closing tag ends it.
 */
const SESSION_START_CONTEXT = /^<hook_context>[\s\S]*?<\/hook_context>\s*/;

/**
 * `text` without a leading SessionStart context: the user's own prompt. The one home of the rule for
 * the reader (the recorded prompt) and the Gemini profile (the hook payload's prompt), exported as
 * `@agent-checkpoint/transcript-gemini/session-start-context`: it imports nothing, so the profile,
 * on every hook's start-up path, can use it without loading the reader.
 */
export function withoutSessionStartContext(text: string): string {
  return text.replace(SESSION_START_CONTEXT, '');
}
