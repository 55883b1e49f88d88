import type { AgentId, TranscriptReader } from '@agent-checkpoint/core';
import { profileOf } from './agents/profiles.ts';

/**
 * The transcript reader of one agent. Imported lazily by its profile: the bundle contains all three,
 * but only the one for this agent is evaluated at run time.
 */
export async function loadTranscriptReader(agent: AgentId): Promise<TranscriptReader> {
  return await profileOf(agent).loadTranscriptReader();
}
