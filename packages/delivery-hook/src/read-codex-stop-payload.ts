import * as z from 'zod/mini';
import type { PayloadReadResult } from './hook-event.ts';
import { HookPayloadBaseSchema, readTurnEndPayload, turnAndFinalTextHint, type TurnEndPayloadSpec } from './hook-payload-base.ts';

/** The fields of Codex CLI's `Stop` payload the hook uses (`model`, `permission_mode`… are ignored). */
export const CodexStopPayloadSchema = z.extend(HookPayloadBaseSchema, {
  /** Same for every Stop of a turn, including the continuation after a block. */
  turn_id: z.nullish(z.string()),
  last_assistant_message: z.nullish(z.string()),
});

const codexStop: TurnEndPayloadSpec<z.infer<typeof CodexStopPayloadSchema>> = {
  agent: 'codex',
  label: 'Codex Stop payload',
  turnEndEventName: 'Stop',
  schema: CodexStopPayloadSchema,
  hint: (p) => turnAndFinalTextHint(p.turn_id, p.last_assistant_message),
};

/** Read a Codex CLI `Stop` payload (already JSON-parsed). */
export function readCodexStopPayload(json: unknown): PayloadReadResult {
  return readTurnEndPayload(codexStop, json);
}
