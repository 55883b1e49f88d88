import { describe, expect, it } from 'vitest';
import { encodeAnthropicReply } from './encode-anthropic-reply.ts';
import { encodeGeminiReply } from './encode-gemini-reply.ts';
import { encodeResponsesReply } from './encode-responses-reply.ts';
import { scenarioSchema as ScenarioSchema } from './scenario-schema.ts';
import { say, shell, tools, withInputTokens } from './scenario.ts';

// A reply's `inputTokens` is what each API's usage reports (the acceptance scenarios push the
// context level with it); without it the usage stays at the old 100 input tokens.

const ids = { step: 0, request: 1 };

describe('reply usage', () => {
  it.each([
    ['a text reply', say('x')],
    ['a tool reply', tools(shell('ls'))],
  ])('%s: inputTokens reaches the Anthropic, Gemini and Responses usage; the default stays 100', (_name, reply) => {
    for (const [given, expected] of [[withInputTokens(reply, 172_000), 172_000], [reply, 100]] as const) {
      const anthropic = encodeAnthropicReply(given, { model: 'claude-sonnet-4-5', ids, workspaceRoot: '/ws' });
      expect((anthropic.message['usage'] as { input_tokens: number }).input_tokens).toBe(expected);
      const start = anthropic.events[0]?.data as { message: { usage: { input_tokens: number } } };
      expect(start.message.usage.input_tokens).toBe(expected);
      const gemini = encodeGeminiReply(given, { model: 'gemini-2.5-flash', ids }) as { usageMetadata?: { promptTokenCount: number; totalTokenCount: number } }[];
      expect(gemini.at(-1)?.usageMetadata).toMatchObject({ promptTokenCount: expected, totalTokenCount: expected + 10 });
      const responses = encodeResponsesReply(given, { model: 'gpt-5.5', ids });
      const completed = responses.at(-1)?.data as { response: { usage: { input_tokens: number; total_tokens: number } } };
      expect(completed.response.usage).toMatchObject({ input_tokens: expected, total_tokens: expected + 10 });
    }
  });

  it('scenario files may set it (a non-negative integer only)', () => {
    const file = (inputTokens: unknown) => ({ name: 'f', steps: [{ kind: 'text', text: 'x', inputTokens }] });
    expect(ScenarioSchema.safeParse(file(172_000)).success).toBe(true);
    expect(ScenarioSchema.safeParse(file(-1)).success).toBe(false);
    expect(ScenarioSchema.safeParse(file('many')).success).toBe(false);
  });
});
