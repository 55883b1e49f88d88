// Read by the monitor's lean bundle after every tool call: plain checks, no zod.
import { isAbsolute, join } from 'node:path';
import type { ContextHookEvent, ContextPayloadRead, PayloadHome } from './context-payload.ts';

/** `$COPILOT_HOME` (absolute) replaces `~/.copilot` for everything: settings, session logs. */
export function copilotHome(where: PayloadHome): string {
  const explicit = where.env['COPILOT_HOME'];
  return explicit !== undefined && isAbsolute(explicit) ? explicit : join(where.home, '.copilot');
}

/** A session id that is safe as one path segment (Copilot's are UUIDs). */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Payload key → event field; every one a string when present (`null` and `''` mean absent). */
const FIELDS = {
  hook_event_name: 'eventName',
  sessionId: 'sessionId',
  transcriptPath: 'transcriptPath',
  cwd: 'cwd',
  source: 'source',
  trigger: 'trigger',
  prompt: 'prompt',
} as const;

/**
 * GitHub Copilot CLI's context hook payloads (1.0.102, recorded in
 * fixtures/copilot/1.0.102/context-hooks/): camelCase, no event name, and — except `preCompact` — no
 * transcript path:
 * - `sessionStart`: `sessionId, timestamp, cwd, source ("new"|"startup"|"resume"), initialPrompt`;
 * - `userPromptSubmitted`: `sessionId, timestamp, cwd, prompt` (once per user prompt, not per model request);
 * - `postToolUse`: `sessionId, timestamp, cwd, toolName, toolArgs, toolResult`; `postToolUseFailure`
 *   (a failed file tool; a shell command that exits non-zero is a success) has `error` instead;
 * - `preCompact`: `sessionId, timestamp, cwd, transcriptPath, trigger ("auto"|"manual"), customInstructions`.
 *
 * The session log is `<copilot home>/session-state/<sessionId>/events.jsonl` (as `agentStop`'s
 * `transcriptPath` names it), so a payload without a path gets that one. A `task` subagent's tool
 * hooks carry the subagent's own session id, whose log does not exist: the monitor finds no usage
 * there and says nothing. Unknown keys are fine; a non-string where a string belongs is an error
 * (the payload is untrusted). Never throws.
 */
export function readCopilotContextPayload(json: unknown, where: PayloadHome): ContextPayloadRead {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: 'Copilot hook payload: expected a JSON object' };
  const event: Record<string, string> = {};
  for (const [key, field] of Object.entries(FIELDS)) {
    const value = (json as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return { error: `Copilot hook payload: ${key} must be a string` };
    if (value !== '') event[field] = value;
  }
  const sessionId = event['sessionId'];
  if (event['transcriptPath'] === undefined && sessionId !== undefined && SESSION_ID.test(sessionId)) {
    event['transcriptPath'] = join(copilotHome(where), 'session-state', sessionId, 'events.jsonl');
  }
  // The log's `hook.start` of this very hook carries the payload's `timestamp` (1.0.102, postToolUse
  // as agentStop): once it is written, so is the call's usage record before it.
  const timestamp = (json as Record<string, unknown>)['timestamp'];
  if (typeof timestamp === 'number' && Number.isSafeInteger(timestamp) && timestamp > 0) event['writeMark'] = `"timestamp":${timestamp}`;
  return { event: event as ContextHookEvent };
}
