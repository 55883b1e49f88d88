// zod/mini: classic zod adds ~30 ms and ~7 MB to every hook start (measured); mini is ~16 KB.
import * as z from 'zod/mini';
import { describeIssues, type AgentId, type TurnHint } from '@agent-checkpoint/core/hot-path';
import type { PayloadReadResult } from './hook-event.ts';

/**
 * The fields every turn-end payload carries under the same names (Claude Code `Stop`, Gemini CLI
 * `AfterAgent`, Codex CLI `Stop`). Each agent's schema extends it with its own turn hint fields.
 * Loose: unknown keys are allowed (agents add fields in new versions); `null` is accepted wherever a
 * value is optional, and `given` treats `''` as absent too.
 */
export const HookPayloadBaseSchema = z.looseObject({
  hook_event_name: z.nullish(z.string()),
  session_id: z.nullish(z.string()),
  /** Optional in Codex's schema; its reader locates the rollout from the session id. */
  transcript_path: z.nullish(z.string()),
  cwd: z.nullish(z.string()),
  /** The agent's re-entry flag (semantics per agent: see `HookEvent.stopHookActive`). */
  stop_hook_active: z.nullish(z.boolean()),
});

/** `null` and `''` mean "not given" in hook payloads (and the status line's JSON). */
export function given(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value;
}

/** A validated payload: the shared base fields plus anything else the agent sent. */
export type HookPayloadBase = z.infer<typeof HookPayloadBaseSchema>;

/** How one agent's turn-end payload is read on top of the shared base. */
export interface TurnEndPayloadSpec<P extends HookPayloadBase> {
  readonly agent: AgentId;
  /** Names the payload in diagnostics, e.g. `Claude Stop payload`. */
  readonly label: string;
  /** The `hook_event_name` of the turn end; a payload without a name counts as one too. */
  readonly turnEndEventName: string;
  /** `HookPayloadBaseSchema` extended (`z.extend`) with the agent's own fields. */
  readonly schema: z.ZodMiniType<P>;
  /** What the agent-specific fields say about the turn. */
  readonly hint: (payload: P) => TurnHint;
  /** Background work still running when the turn ended; 0 when the agent reports none. */
  readonly runningBackgroundTasks?: (payload: P) => number;
}

/** Validate an already JSON-parsed payload with `spec` and map it to a `HookEvent`. Never throws. */
export function readTurnEndPayload<P extends HookPayloadBase>(spec: TurnEndPayloadSpec<P>, json: unknown): PayloadReadResult {
  const parsed = spec.schema.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', detail: `${spec.label}: ${describeIssues(parsed.error)}` };
  const p = parsed.data;
  const eventName = given(p.hook_event_name);
  const sessionId = given(p.session_id);
  const transcriptPath = given(p.transcript_path);
  const cwd = given(p.cwd);
  return {
    kind: 'event',
    event: {
      agent: spec.agent,
      eventName,
      isTurnEnd: eventName === undefined || eventName === spec.turnEndEventName,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(transcriptPath === undefined ? {} : { transcriptPath }),
      ...(cwd === undefined ? {} : { cwd }),
      stopHookActive: p.stop_hook_active === true,
      hint: spec.hint(p),
      runningBackgroundTasks: spec.runningBackgroundTasks?.(p) ?? 0,
    },
  };
}

/**
 * The hint of agents that name the turn and send its final text (Claude `prompt_id`, Codex `turn_id`,
 * both `last_assistant_message`). An empty turn id is absent; an empty final text is kept (it is what
 * the agent said).
 */
export function turnAndFinalTextHint(turnId: string | null | undefined, lastAssistantMessage: string | null | undefined): TurnHint {
  const id = given(turnId);
  return {
    ...(id === undefined ? {} : { turnId: id }),
    ...(lastAssistantMessage === null || lastAssistantMessage === undefined ? {} : { lastAssistantMessage }),
  };
}
