import { describe, expect, it } from 'vitest';
import { userTextOf } from './gemini-message-content.ts';
import { withoutSessionStartContext } from './session-start-context.ts';

// The one rule for the SessionStart context Gemini CLI 0.61 puts in front of the session's first
// prompt; the Gemini profile (delivery-hook) applies the same function to the BeforeAgent payload's
// prompt (profiles.test.ts holds it to this export).

const CONTEXT = '<hook_context>The previous session ended with a context checkpoint. Read .agent-checkpoint/handoffs/h.md.\n\n## Next Steps\n\nContinue the plan in `PLAN.md`.\n</hook_context>\n\n';
const PROMPT = 'Loop iteration 2 of 3. Work on the calculator; one step per iteration.';

describe('withoutSessionStartContext', () => {
  it('drops a leading context over several lines and the blank line after it', () => {
    expect(withoutSessionStartContext(`${CONTEXT}${PROMPT}`)).toBe(PROMPT);
  });

  it('ends the context at the first closing tag (Gemini escapes < and > inside it): a tag in the prompt stays', () => {
    const prompt = 'Explain what </hook_context> means in the hook log.';
    expect(withoutSessionStartContext(`${CONTEXT}${prompt}`)).toBe(prompt);
  });

  it('leaves a prompt alone that has no leading context, or that merely mentions one later', () => {
    expect(withoutSessionStartContext(PROMPT)).toBe(PROMPT);
    const quoted = `Why did Gemini send ${CONTEXT.trim()} here?`;
    expect(withoutSessionStartContext(quoted)).toBe(quoted);
    expect(withoutSessionStartContext(' <hook_context>x</hook_context> rest')).toBe(' <hook_context>x</hook_context> rest');
  });

  it('is the rule the reader applies to a recorded user message', () => {
    const message = { id: 'm1', type: 'user', raw: { content: [{ text: `${CONTEXT}${PROMPT}` }] } };
    expect(userTextOf(message)).toBe(PROMPT);
  });
});
