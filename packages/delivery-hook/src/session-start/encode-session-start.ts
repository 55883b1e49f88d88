import { forModelText, type AgentId } from '@agent-checkpoint/core';
import { profileOf } from '../agents/profiles.ts';

/**
 * The SessionStart answer that adds `context` to the session, or `''` (nothing to add). The shape is
 * the agent profile's (today one `hookSpecificOutput.additionalContext` object serves all three).
 *
 * The context quotes a repository file (the handoff): it passes `forModelText` here, the boundary,
 * so no control character reaches the model whoever built it.
 */
export function encodeSessionStart(agent: AgentId, context: string | undefined): string {
  if (context === undefined || context === '') return '';
  return profileOf(agent).encodeSessionStart(forModelText(context));
}
