import type { ContextPayloadReader, PayloadHome } from '../agents/context-payload.ts';

/**
 * The fields of a PostToolUse (Claude, Codex, Qwen) / AfterTool (Gemini) payload the monitor uses. These
 * agents send `session_id`, `transcript_path`, `cwd` and `hook_event_name` (shared/agents/*.md).
 * Validated by hand, not with zod: this hook runs after every tool call and must start cheaply.
 */
export interface PostToolEvent {
  readonly eventName?: string;
  readonly sessionId?: string;
  readonly transcriptPath?: string;
  readonly cwd?: string;
  /** What the transcript holds once this call is written (`ContextHookEvent.writeMark`). */
  readonly writeMark?: string;
}

const FIELDS = { hook_event_name: 'eventName', session_id: 'sessionId', transcript_path: 'transcriptPath', cwd: 'cwd' } as const;

/**
 * Parse a payload: with the agent's own reader when it has one (`agents/post-tool-payload-readers.ts`:
 * Copilot CLI's camelCase payload without a transcript path), else the snake_case fields. Unknown keys
 * are fine, `null` means absent, a non-string where a string belongs is an error (the payload is
 * untrusted). Never throws.
 */
export function readPostToolPayload(text: string, reader?: { readonly read: ContextPayloadReader; readonly where: PayloadHome }): { readonly event: PostToolEvent } | { readonly error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'empty stdin (expected the hook payload JSON)' };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch (error) {
    return { error: `stdin is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (reader !== undefined) return reader.read(json, reader.where);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: 'hook payload: expected a JSON object' };
  const event: Record<string, string> = {};
  for (const [key, field] of Object.entries(FIELDS)) {
    const value = (json as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return { error: `hook payload: ${key} must be a string` };
    if (value !== '') event[field] = value;
  }
  // The call's id, as the transcript's entry for it holds it (a JSON string); anything else is ignored.
  // Not for a subagent's call (Claude Code adds `agent_id`): it is written to the subagent's own
  // transcript, never to the one named, so waiting for it would only cost every such call the bound.
  const callId = (json as Record<string, unknown>)['tool_use_id'];
  const subagent = (json as Record<string, unknown>)['agent_id'] !== undefined && (json as Record<string, unknown>)['agent_id'] !== null;
  if (!subagent && typeof callId === 'string' && callId !== '' && callId.length <= 200) event['writeMark'] = JSON.stringify(callId);
  return { event };
}
