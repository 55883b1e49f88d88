import * as z from 'zod/mini';
import type { TurnHint } from '@agent-checkpoint/core';
import type { PayloadReadResult } from './hook-event.ts';
import { describeIssues, given } from './zod-issues.ts';

/**
 * The fields of Gemini CLI's `AfterAgent` payload the hook uses. `prompt_response` is deliberately
 * not read: it repeats chunk tails (a CLI bug), the transcript holds the real text.
 */
export const GeminiAfterAgentPayloadSchema = z.looseObject({
  hook_event_name: z.nullish(z.string()),
  session_id: z.nullish(z.string()),
  transcript_path: z.nullish(z.string()),
  cwd: z.nullish(z.string()),
  /** The original request of this user prompt; unchanged on every AfterAgent after our blocks. */
  prompt: z.nullish(z.string()),
  /** Only true after a text-only answer to a block; false again once the model called a tool. */
  stop_hook_active: z.nullish(z.boolean()),
});

/** Read a Gemini CLI `AfterAgent` payload (already JSON-parsed). */
export function readGeminiAfterAgentPayload(json: unknown): PayloadReadResult {
  const parsed = GeminiAfterAgentPayloadSchema.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', detail: `Gemini AfterAgent payload: ${describeIssues(parsed.error)}` };
  const p = parsed.data;
  const prompt = p.prompt ?? undefined;
  const hint: TurnHint = prompt === undefined ? {} : { prompt };
  const eventName = given(p.hook_event_name);
  const sessionId = given(p.session_id);
  const transcriptPath = given(p.transcript_path);
  const cwd = given(p.cwd);
  return {
    kind: 'event',
    event: {
      agent: 'gemini',
      eventName,
      isTurnEnd: eventName === undefined || eventName === 'AfterAgent',
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(transcriptPath === undefined ? {} : { transcriptPath }),
      ...(cwd === undefined ? {} : { cwd }),
      stopHookActive: p.stop_hook_active === true,
      hint,
      runningBackgroundTasks: 0,
    },
  };
}
