/**
 * What the context hooks (SessionStart, PreCompact, UserPromptSubmit and the monitor after a tool
 * call) read from an agent's payload, whatever the agent calls the fields. Types only: the monitor's
 * lean bundle imports this file, so it must stay free of code (zod above all).
 */

/** A validated context hook payload, absent fields left out. */
export interface ContextHookEvent {
  readonly eventName?: string;
  readonly sessionId?: string;
  /** The session's transcript: from the payload, or derived from the session id by the agent's reader. */
  readonly transcriptPath?: string;
  readonly cwd?: string;
  /** SessionStart: why the session starts. */
  readonly source?: string;
  /** PreCompact: `manual` or `auto`. */
  readonly trigger?: string;
  /** Codex PreCompact: the active turn. */
  readonly turnId?: string;
  /** UserPromptSubmit: the submitted prompt. */
  readonly prompt?: string;
  /**
   * UserPromptSubmit fired for a model request inside the turn (a tool result, another hook's Stop
   * reason), not for a prompt the user submitted: why the reader says so. The prompt hook then says
   * nothing, so its warning comes once per user prompt.
   */
  readonly notUserPrompt?: string;
  /**
   * After a tool call: text the transcript holds once the agent has written this call (Claude Code's
   * `tool_use_id` as a JSON string; Copilot CLI's `"timestamp":<ms>` of its `hook.start` event). The
   * monitor waits for it, bounded, where the agent writes behind its hooks (wait-for-tool-call.ts).
   */
  readonly writeMark?: string;
}

/** A payload read by an agent's reader: the event, or why it is unusable (one line). */
export type ContextPayloadRead = { readonly event: ContextHookEvent } | { readonly error: string };

/** Where the agent keeps its files, for a reader that derives the transcript path. */
export interface PayloadHome {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `$HOME` (`os.homedir()`). */
  readonly home: string;
}

/** An agent's context payload reader: the JSON-parsed stdin in, the event out. Never throws. */
export type ContextPayloadReader = (json: unknown, where: PayloadHome) => ContextPayloadRead;
