import { forModelText, type AgentId } from '@agent-checkpoint/core';
import { profileOf } from '../agents/profiles.ts';

/**
 * The prompt-submit answer that adds `context` to the prompt, or `''`: the agent profile's shape
 * (`hookSpecificOutput.additionalContext` for all three). Never a block: the prompt always goes
 * through. The text passes `forModelText` here, the boundary.
 */
export function encodePromptSubmit(agent: AgentId, context: string | undefined): string {
  if (context === undefined || context === '') return '';
  return profileOf(agent).encodePromptSubmit(forModelText(context));
}
