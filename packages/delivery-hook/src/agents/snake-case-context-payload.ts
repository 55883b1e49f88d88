import * as z from 'zod/mini';
import { describeIssues } from '@agent-checkpoint/core/hot-path';
import { given } from '../hook-payload-base.ts';
import type { ContextHookEvent, ContextPayloadRead } from './context-payload.ts';

/**
 * The fields of the SessionStart, PreCompact (Gemini: PreCompress) and UserPromptSubmit (Gemini:
 * BeforeAgent) payloads the context hooks use, in the snake_case names Claude Code, Gemini CLI, Codex
 * CLI and Qwen Code share (claude-cli.md, gemini-cli.md §2, codex-cli.md §4, qwen-code.md): Claude
 * `source: startup|resume|clear|compact|fork` and `trigger: manual|auto`; Codex the same plus
 * `model`, `turn_id`; Gemini `source: startup|resume|clear` and `trigger: manual|auto`. Loose:
 * unknown keys are fine; `null` means absent.
 */
export const ContextHookPayloadSchema = z.looseObject({
  hook_event_name: z.nullish(z.string()),
  session_id: z.nullish(z.string()),
  transcript_path: z.nullish(z.string()),
  cwd: z.nullish(z.string()),
  /** SessionStart: why the session starts. */
  source: z.nullish(z.string()),
  /** PreCompact: `manual` (/compact) or `auto`. */
  trigger: z.nullish(z.string()),
  /** Codex PreCompact: the active turn. */
  turn_id: z.nullish(z.string()),
  /** UserPromptSubmit / BeforeAgent: the submitted prompt (Gemini: a block reason on continuations). */
  prompt: z.nullish(z.string()),
});

/** The payload as {@link ContextHookPayloadSchema} reads it, with the fields it declares. */
export type SnakeCaseContextPayload = z.infer<typeof ContextHookPayloadSchema>;

/** Validate a JSON-parsed snake_case context payload (the reader of every profile without its own). Never throws. */
export function readSnakeCaseContextPayload(json: unknown): ContextPayloadRead {
  const checked = ContextHookPayloadSchema.safeParse(json);
  if (!checked.success) return { error: `hook payload: ${describeIssues(checked.error)}` };
  const p = checked.data;
  const fields: Record<string, string | undefined> = {
    eventName: given(p.hook_event_name),
    sessionId: given(p.session_id),
    transcriptPath: given(p.transcript_path),
    cwd: given(p.cwd),
    source: given(p.source),
    trigger: given(p.trigger),
    turnId: given(p.turn_id),
    prompt: given(p.prompt),
  };
  return { event: Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ContextHookEvent };
}
