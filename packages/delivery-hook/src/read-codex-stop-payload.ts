import * as z from 'zod/mini';
import type { TurnHint } from '@agent-checkpoint/core';
import type { PayloadReadResult } from './hook-event.ts';
import { describeIssues, given } from './zod-issues.ts';

/** The fields of Codex CLI's `Stop` payload the hook uses (`model`, `permission_mode`… are ignored). */
export const CodexStopPayloadSchema = z.looseObject({
  hook_event_name: z.nullish(z.string()),
  session_id: z.nullish(z.string()),
  /** Same for every Stop of a turn, including the continuation after a block. */
  turn_id: z.nullish(z.string()),
  /** Optional in Codex's schema; the reader can locate the rollout from the session id. */
  transcript_path: z.nullish(z.string()),
  cwd: z.nullish(z.string()),
  stop_hook_active: z.nullish(z.boolean()),
  last_assistant_message: z.nullish(z.string()),
});

/** Read a Codex CLI `Stop` payload (already JSON-parsed). */
export function readCodexStopPayload(json: unknown): PayloadReadResult {
  const parsed = CodexStopPayloadSchema.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', detail: `Codex Stop payload: ${describeIssues(parsed.error)}` };
  const p = parsed.data;
  const turnId = given(p.turn_id);
  const lastAssistantMessage = p.last_assistant_message ?? undefined;
  const hint: TurnHint = {
    ...(turnId === undefined ? {} : { turnId }),
    ...(lastAssistantMessage === undefined ? {} : { lastAssistantMessage }),
  };
  const eventName = given(p.hook_event_name);
  const sessionId = given(p.session_id);
  const transcriptPath = given(p.transcript_path);
  const cwd = given(p.cwd);
  return {
    kind: 'event',
    event: {
      agent: 'codex',
      eventName,
      isTurnEnd: eventName === undefined || eventName === 'Stop',
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(transcriptPath === undefined ? {} : { transcriptPath }),
      ...(cwd === undefined ? {} : { cwd }),
      stopHookActive: p.stop_hook_active === true,
      hint,
      runningBackgroundTasks: 0,
    },
  };
}
