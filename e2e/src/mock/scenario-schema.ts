import { z } from 'zod';
import type { Scenario } from './scenario.ts';

/** zod schema for {@link Scenario} files loaded by the standalone mock. */
const toolCall = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shell'), command: z.string(), description: z.string().optional(), yieldTimeMs: z.number().int().positive().optional() }),
  z.object({ kind: z.literal('read'), path: z.string() }),
  z.object({ kind: z.literal('write'), path: z.string(), content: z.string() }),
  z.object({ kind: z.literal('edit'), path: z.string(), oldText: z.string(), newText: z.string() }),
  z.object({
    kind: z.literal('patch'),
    changes: z.array(
      z.discriminatedUnion('op', [
        z.object({ op: z.literal('update'), path: z.string(), oldText: z.string(), newText: z.string() }),
        z.object({ op: z.literal('add'), path: z.string(), content: z.string() }),
        z.object({ op: z.literal('delete'), path: z.string() }),
      ]),
    ),
  }),
  z.object({ kind: z.literal('subagent'), description: z.string(), prompt: z.string(), subagentType: z.string().optional() }),
  z.object({ kind: z.literal('codex'), type: z.enum(['function_call', 'custom_tool_call']), name: z.string().min(1), input: z.string(), namespace: z.string().optional() }),
]);

const modelReply = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tools'), calls: z.array(toolCall).min(1), text: z.string().optional(), inputTokens: z.number().int().nonnegative().optional() }),
  z.object({ kind: z.literal('text'), text: z.string(), inputTokens: z.number().int().nonnegative().optional() }),
]);

const condition = z.union([
  z.object({ lastUserText: z.object({ startsWith: z.string() }) }),
  z.object({ lastUserText: z.object({ includes: z.string() }) }),
]);

const step = z.union([
  modelReply,
  z.object({ kind: z.literal('branch'), cases: z.array(z.object({ when: condition, reply: modelReply })), otherwise: modelReply }),
]);

export const scenarioSchema = z.object({
  name: z.string(),
  steps: z.array(step),
  fallback: modelReply.optional(),
  title: z.string().optional(),
  subagents: z.array(z.object({ prompt: z.string().min(1), steps: z.array(step) })).optional(),
});

/** Parses untrusted JSON into a {@link Scenario}; throws a readable error on mismatch. */
export function parseScenario(json: unknown): Scenario {
  const result = scenarioSchema.safeParse(json);
  if (!result.success) throw new Error(`invalid scenario: ${z.prettifyError(result.error)}`);
  return result.data as Scenario;
}
