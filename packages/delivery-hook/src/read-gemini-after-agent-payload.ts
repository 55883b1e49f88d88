import * as z from 'zod/mini';
import type { PayloadReadResult } from './hook-event.ts';
import { HookPayloadBaseSchema, readTurnEndPayload, type TurnEndPayloadSpec } from './hook-payload-base.ts';

/**
 * The fields of Gemini CLI's `AfterAgent` payload the hook uses. `prompt_response` is deliberately
 * not read: it repeats chunk tails (a CLI bug), the transcript holds the real text. Gemini's
 * `stop_hook_active` is only true after a text-only answer to a block; false again once the model
 * called a tool.
 */
export const GeminiAfterAgentPayloadSchema = z.extend(HookPayloadBaseSchema, {
  /** The original request of this user prompt; unchanged on every AfterAgent after our blocks. */
  prompt: z.nullish(z.string()),
});

const geminiAfterAgent: TurnEndPayloadSpec<z.infer<typeof GeminiAfterAgentPayloadSchema>> = {
  agent: 'gemini',
  label: 'Gemini AfterAgent payload',
  turnEndEventName: 'AfterAgent',
  schema: GeminiAfterAgentPayloadSchema,
  hint: (p) => (p.prompt === null || p.prompt === undefined ? {} : { prompt: p.prompt }),
};

/** Read a Gemini CLI `AfterAgent` payload (already JSON-parsed). */
export function readGeminiAfterAgentPayload(json: unknown): PayloadReadResult {
  return readTurnEndPayload(geminiAfterAgent, json);
}
