import { assertNever, forModelText, type AgentId } from '@agent-checkpoint/core';

/**
 * The SessionStart answer that adds `context` to the session, or `''` (nothing to add).
 *
 * One shape serves all three agents:
 * - Claude Code: `hookSpecificOutput.additionalContext` of a `SessionStart` output is added to the
 *   model's context (its hook output schema, `hookEventName: "SessionStart"`);
 * - Codex CLI: the same object (`session-start.command.output` schema of 0.169: `hookEventName` is
 *   required, no other keys are allowed);
 * - Gemini CLI: reads `hookSpecificOutput.additionalContext` and prepends it to the prompt as
 *   `<hook_context>…</hook_context>` (0.61, `<` and `>` escaped); `hookEventName` is ignored.
 *
 * The context quotes a repository file (the handoff): it passes `forModelText` here, the boundary,
 * so no control character reaches the model whoever built it.
 */
export function encodeSessionStart(agent: AgentId, context: string | undefined): string {
  if (context === undefined || context === '') return '';
  switch (agent) {
    case 'claude':
    case 'codex':
    case 'gemini':
      return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: forModelText(context) } });
    default:
      return assertNever(agent);
  }
}
