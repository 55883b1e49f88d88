import type { AgentId } from '@agent-checkpoint/core/hot-path';
import { profileOf } from './agents/profiles.ts';
import type { PayloadReadResult } from './hook-event.ts';

/** Parse stdin text as JSON and validate it as `agent`'s turn-end payload (its profile's schema). Never throws. */
export function readHookPayload(agent: AgentId, text: string): PayloadReadResult {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'invalid', detail: 'empty stdin (expected the hook payload JSON)' };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch (error) {
    return { kind: 'invalid', detail: `stdin is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  return profileOf(agent).readTurnEndPayload(json);
}
