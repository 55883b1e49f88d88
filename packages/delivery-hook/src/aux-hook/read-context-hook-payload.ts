// zod/mini, as for the Stop payloads: these hooks start a process per event too.
import * as z from 'zod/mini';
import { describeIssues, given } from '../zod-issues.ts';
import { parseJsonPayload } from './run-aux-hook.ts';

/**
 * The fields of the SessionStart, PreCompact (Gemini: PreCompress) and UserPromptSubmit (Gemini:
 * BeforeAgent) payloads the context hooks use.
 * All three agents send the same names (claude-cli.md, gemini-cli.md §2, codex-cli.md §4): Claude
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

/** A validated SessionStart/PreCompact payload, absent fields left out. */
export interface ContextHookEvent {
  readonly eventName?: string;
  readonly sessionId?: string;
  readonly transcriptPath?: string;
  readonly cwd?: string;
  readonly source?: string;
  readonly trigger?: string;
  readonly turnId?: string;
  readonly prompt?: string;
}

/** Parse and validate a context hook payload. Never throws. */
export function readContextHookPayload(text: string): { readonly event: ContextHookEvent } | { readonly error: string } {
  const parsed = parseJsonPayload(text);
  if ('error' in parsed) return parsed;
  const checked = ContextHookPayloadSchema.safeParse(parsed.json);
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
