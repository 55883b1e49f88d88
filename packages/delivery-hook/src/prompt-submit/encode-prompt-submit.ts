import { forModelText, type AgentId } from '@agent-checkpoint/core';

/**
 * The prompt-submit answer that adds `context` to the prompt, or `''`. All three agents read
 * `hookSpecificOutput.additionalContext` here: Claude Code (UserPromptSubmit, as a system reminder
 * before the prompt), Codex CLI (UserPromptSubmit: `hookEventName` names the event) and Gemini CLI
 * (BeforeAgent, as `<hook_context>`; it ignores `hookEventName`). Never a block: the prompt always
 * goes through. The text passes `forModelText` here, the boundary.
 */
export function encodePromptSubmit(agent: AgentId, context: string | undefined): string {
  if (context === undefined || context === '') return '';
  const hookEventName = agent === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit';
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: forModelText(context) } });
}
