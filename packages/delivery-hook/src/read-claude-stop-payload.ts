import * as z from 'zod/mini';
import type { PayloadReadResult } from './hook-event.ts';
import { HookPayloadBaseSchema, readTurnEndPayload, turnAndFinalTextHint, type TurnEndPayloadSpec } from './hook-payload-base.ts';

/**
 * The fields of Claude Code's `Stop` payload the hook uses. Loose: unknown keys (`permission_mode`,
 * `effort`, `session_crons`…) are allowed; `null` is accepted wherever a value is optional.
 */
export const ClaudeStopPayloadSchema = z.extend(HookPayloadBaseSchema, {
  /** Same for every Stop of a turn, including those after a block; new for each real prompt. */
  prompt_id: z.nullish(z.string()),
  /** The final text; Claude's transcript writer may lag behind it by ~100 ms. */
  last_assistant_message: z.nullish(z.string()),
  /** Running background subagents; the turn is not really over while one runs. */
  background_tasks: z.nullish(z.array(z.unknown())),
});

const claudeStop: TurnEndPayloadSpec<z.infer<typeof ClaudeStopPayloadSchema>> = {
  agent: 'claude',
  label: 'Claude Stop payload',
  turnEndEventName: 'Stop',
  schema: ClaudeStopPayloadSchema,
  hint: (p) => turnAndFinalTextHint(p.prompt_id, p.last_assistant_message),
  runningBackgroundTasks: (p) => (p.background_tasks ?? []).filter(isRunningTask).length,
};

/** Read a Claude Code `Stop` payload (already JSON-parsed). */
export function readClaudeStopPayload(json: unknown): PayloadReadResult {
  return readTurnEndPayload(claudeStop, json);
}

/** A task counts as running unless it says otherwise (`status` other than `running`). */
function isRunningTask(task: unknown): boolean {
  if (typeof task !== 'object' || task === null) return false;
  const status = (task as { status?: unknown }).status;
  return status === undefined || status === 'running' || status === 'pending';
}
