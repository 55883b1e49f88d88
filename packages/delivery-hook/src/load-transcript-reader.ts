import { assertNever, type AgentId, type TranscriptReader } from '@agent-checkpoint/core';

/**
 * The transcript reader of one agent. Imported lazily: the bundle contains all three, but only the
 * one for this agent is evaluated at run time.
 */
export async function loadTranscriptReader(agent: AgentId): Promise<TranscriptReader> {
  switch (agent) {
    case 'claude':
      return (await import('@agent-checkpoint/transcript-claude')).createClaudeTranscriptReader();
    case 'gemini':
      return (await import('@agent-checkpoint/transcript-gemini')).createGeminiTranscriptReader();
    case 'codex':
      return (await import('@agent-checkpoint/transcript-codex')).createCodexTranscriptReader();
    default:
      return assertNever(agent);
  }
}
