// zod/mini: classic zod adds ~30 ms and ~7 MB to every hook start (measured); mini is ~16 KB.
import * as z from 'zod/mini';
import type { TurnHint } from '@agent-checkpoint/core';
import type { PayloadReadResult } from './hook-event.ts';
import { describeIssues, given } from './zod-issues.ts';

/**
 * The fields of Claude Code's `Stop` payload the hook uses. Loose: unknown keys (`permission_mode`,
 * `effort`, `session_crons`…) are allowed; `null` is accepted wherever a value is optional.
 */
export const ClaudeStopPayloadSchema = z.looseObject({
  hook_event_name: z.nullish(z.string()),
  session_id: z.nullish(z.string()),
  transcript_path: z.nullish(z.string()),
  cwd: z.nullish(z.string()),
  /** Same for every Stop of a turn, including those after a block; new for each real prompt. */
  prompt_id: z.nullish(z.string()),
  stop_hook_active: z.nullish(z.boolean()),
  /** The final text; Claude's transcript writer may lag behind it by ~100 ms. */
  last_assistant_message: z.nullish(z.string()),
  /** Running background subagents; the turn is not really over while one runs. */
  background_tasks: z.nullish(z.array(z.unknown())),
});

/** Read a Claude Code `Stop` payload (already JSON-parsed). */
export function readClaudeStopPayload(json: unknown): PayloadReadResult {
  const parsed = ClaudeStopPayloadSchema.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', detail: `Claude Stop payload: ${describeIssues(parsed.error)}` };
  const p = parsed.data;
  const turnId = given(p.prompt_id);
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
      agent: 'claude',
      eventName,
      isTurnEnd: eventName === undefined || eventName === 'Stop',
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(transcriptPath === undefined ? {} : { transcriptPath }),
      ...(cwd === undefined ? {} : { cwd }),
      stopHookActive: p.stop_hook_active === true,
      hint,
      runningBackgroundTasks: (p.background_tasks ?? []).filter(isRunningTask).length,
    },
  };
}

/** A task counts as running unless it says otherwise (`status` other than `running`). */
function isRunningTask(task: unknown): boolean {
  if (typeof task !== 'object' || task === null) return false;
  const status = (task as { status?: unknown }).status;
  return status === undefined || status === 'running' || status === 'pending';
}
