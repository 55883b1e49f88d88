import { assertNever, type AgentId } from '@agent-checkpoint/core/hot-path';
import type { PayloadReadResult } from './hook-event.ts';
import { readClaudeStopPayload } from './read-claude-stop-payload.ts';
import { readCodexStopPayload } from './read-codex-stop-payload.ts';
import { readGeminiAfterAgentPayload } from './read-gemini-after-agent-payload.ts';

/** Parse stdin text as JSON and validate it as `agent`'s turn-end payload. Never throws. */
export function readHookPayload(agent: AgentId, text: string): PayloadReadResult {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'invalid', detail: 'empty stdin (expected the hook payload JSON)' };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch (error) {
    return { kind: 'invalid', detail: `stdin is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  switch (agent) {
    case 'claude':
      return readClaudeStopPayload(json);
    case 'gemini':
      return readGeminiAfterAgentPayload(json);
    case 'codex':
      return readCodexStopPayload(json);
    default:
      return assertNever(agent);
  }
}
