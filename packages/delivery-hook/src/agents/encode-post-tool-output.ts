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
 * - Codex `PostToolUse`: the same Claude-compatible shape (its hook output schema mirrors Claude's).
 *   Observed with the real 0.169: `additionalContext` reaches the model as a `developer` message
 *   placed right before the tool's output; `systemMessage` is a hook warning the TUI shows as
 *   `↳ Hook · <text>` (`codex exec` prints it nowhere). `decision: "block"` or exit 2 would *replace*
 *   the tool's output with the reason, so the model would lose the result: never used here.
 *
 * - Qwen Code `PostToolUse` / `PostToolUseFailure`: the Claude-compatible shape (0.24.4 reads
 *   `hookSpecificOutput.additionalContext` whatever its `hookEventName`).
 * - Copilot CLI `postToolUse` / `postToolUseFailure`: a top-level `additionalContext` (1.0.102, against
 *   the loopback mock: appended to the tool's result as "Additional guidance from postToolUse hooks",
 *   or after a failed call as a user message). It ignores `hookSpecificOutput`, and `copilot -p` shows
 *   no `systemMessage`: as for Gemini, the user's line goes into the context (the model relays it).
 *
 * - Pi `tool_result` (our extension): a top-level `additionalContext`, appended to the tool's result
 *   as one more text block (the model reads it with the result); `systemMessage` becomes Pi's
 *   notification (`ctx.ui.notify`), stderr in `pi -p`.
 *
 * Never `decision: "block"`: the monitor informs, it never stops a tool.
 */
export function encodePostToolOutput(agent: AgentId, output: PostToolOutput): string {
  const { context, userMessage } = output;
  if (context === undefined && userMessage === undefined) return '';
  switch (agent) {
    case 'claude':
    case 'codex':
    case 'qwen': {
      const out: Record<string, unknown> = {};
      if (context !== undefined) out['hookSpecificOutput'] = { hookEventName: 'PostToolUse', additionalContext: context };
      if (userMessage !== undefined) out['systemMessage'] = userMessage;
      return JSON.stringify(out);
    }
    case 'pi': {
      // Our extension appends `additionalContext` to the tool's result and shows `systemMessage` as a notice.
      const out: Record<string, unknown> = {};
      if (context !== undefined) out['additionalContext'] = context;
      if (userMessage !== undefined) out['systemMessage'] = userMessage;
      return JSON.stringify(out);
    }
    case 'gemini':
      return JSON.stringify({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: joined(context, userMessage) } });
    case 'copilot':
      return JSON.stringify({ additionalContext: joined(context, userMessage) });
  }
}

/** The model's context followed by the user's line, for an agent that shows hook output to no one but the model. */
function joined(context: string | undefined, userMessage: string | undefined): string {
  return [context, userMessage].filter((t): t is string => t !== undefined).join('\n\n');
}
