// Read by the monitor's lean bundle after every tool call: plain checks, no zod.
import type { ContextHookEvent, ContextPayloadRead } from './context-payload.ts';

/** Payload key → event field; every one a string when present (`null` and `''` mean absent). */
const FIELDS = {
  session_id: 'sessionId',
  transcript_path: 'transcriptPath',
  cwd: 'cwd',
  source: 'source',
  prompt: 'prompt',
} as const;

/**
 * The context payloads of our Pi extension (`plugins/agent-checkpoint/pi/agent-checkpoint/index.js`;
 * Pi has no hook payload of its own: the extension is ours, so is this shape). Every one is
 * `{hook_event_name, session_id, transcript_path, cwd}` from Pi's session manager (the session's JSONL
 * may not exist yet: Pi writes it at the first assistant message), plus:
 * - `session_start`: `source`, Pi's reason (`startup`, `reload`, `new`, `resume`, `fork`);
 * - `before_agent_start`: `prompt`, the submitted prompt after Pi's skill/template expansion;
 * - `tool_result`: `tool_name`, `tool_call_id` (for the debug log). No write mark: the extension's
 *   `tool_call` handler makes Pi write the call's assistant message (its usage) before the tool runs;
 * - `session_before_compact`: nothing more (0.73.1 does not say whether the compaction is manual).
 *
 * Pi's event names are kept as they are: each hook answers the events Pi's hook entries register for
 * its mode (agents/hook-entries.ts), so a misrouted entry's name is ignored. Unknown keys are fine; a
 * non-string where a string belongs is an error (the payload is untrusted). Never throws.
 */
export function readPiContextPayload(json: unknown): ContextPayloadRead {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: 'Pi hook payload: expected a JSON object' };
  const payload = json as Record<string, unknown>;
  const event: Record<string, string> = {};
  for (const key of ['hook_event_name', ...Object.keys(FIELDS)]) {
    const value = payload[key];
    if (value !== undefined && value !== null && typeof value !== 'string') return { error: `Pi hook payload: ${key} must be a string` };
  }
  const named = payload['hook_event_name'];
  if (typeof named === 'string' && named !== '') event['eventName'] = named;
  for (const [key, field] of Object.entries(FIELDS)) {
    const value = payload[key];
    if (typeof value === 'string' && value !== '') event[field] = value;
  }
  return { event: event as ContextHookEvent };
}
