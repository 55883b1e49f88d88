import type { AgentId } from '@agent-checkpoint/core/hot-path';

/** What the monitor says after a tool call: context for the model, a line for the user. */
export interface PostToolOutput {
  /** Added to the model's context (never a block: the tool call already happened). */
  readonly context?: string;
  /** Shown to the user (a handoff or commit happened). */
  readonly userMessage?: string;
}

/**
 * The stdout of the post-tool hook for `agent`: `''` when there is nothing to say, else one JSON object.
 *
 * - Claude `PostToolUse`: `hookSpecificOutput.additionalContext` reaches the model with the tool
 *   result; `systemMessage` is shown to the user.
 * - Gemini `AfterTool`: `hookSpecificOutput.additionalContext` is appended to the tool result the
 *   model sees; Gemini has no user-facing `systemMessage` for hooks, so the user line goes into the
 *   context text instead (the model relays it).
 * - Codex `PostToolUse`: the same Claude-compatible shape (its hook schema mirrors Claude's); whether
 *   0.169 passes `additionalContext` to the model is not verified (docs/context-checkpoints.md).
 *
 * Never `decision: "block"`: the monitor informs, it never stops a tool.
 */
export function encodePostToolOutput(agent: AgentId, output: PostToolOutput): string {
  const { context, userMessage } = output;
  if (context === undefined && userMessage === undefined) return '';
  switch (agent) {
    case 'claude':
    case 'codex': {
      const out: Record<string, unknown> = {};
      if (context !== undefined) out['hookSpecificOutput'] = { hookEventName: 'PostToolUse', additionalContext: context };
      if (userMessage !== undefined) out['systemMessage'] = userMessage;
      return JSON.stringify(out);
    }
    case 'gemini': {
      const text = [context, userMessage].filter((t): t is string => t !== undefined).join('\n\n');
      return JSON.stringify({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: text } });
    }
  }
}
