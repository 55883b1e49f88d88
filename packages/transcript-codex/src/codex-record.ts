/**
 * Normalized facts extracted from one Codex rollout line. The parser turns every raw shape it knows
 * (0.169 `item_completed` items, `response_item` payloads, and the older `event_msg` forms) into these
 * records; everything downstream (turn grouping, call merging, usage) works on records only.
 *
 * `turnId` is the turn the line says it belongs to (`task_started.turn_id`, `item_completed.turn_id`,
 * `internal_chat_message_metadata_passthrough.turn_id`…). Older rollouts have none: such records are
 * grouped by position (see `group-codex-turns.ts`).
 */
export type CodexRecord =
  | SessionMetaRecord
  | TurnStartRecord
  | TurnEndRecord
  | TurnContextRecord
  | UserTextRecord
  | HookPromptRecord
  | AssistantTextRecord
  | CallRecord
  | CallOutputRecord
  | CommandResultRecord
  | PatchResultRecord
  | ItemToolRecord
  | SubagentRecord
  | CollabRecord
  | UnknownItemRecord
  | UsageRecord;

/** Where a message record came from. Codex writes the same message in several forms. */
export type MessageSource =
  /** `event_msg item_completed` (`UserMessage`, `HookPrompt`, `AgentMessage`): 0.169's best marker. */
  | 'item'
  /** Older `event_msg user_message` / `agent_message`. */
  | 'event'
  /** `response_item message` (what the model saw; includes harness-injected context). */
  | 'response';

interface RecordBase {
  /** ISO-8601 time of the line. */
  readonly timestamp?: string;
  /** Byte offset of the line: a stable position for ordering and synthetic ids. */
  readonly offset: number;
  readonly turnId?: string;
}

export interface SessionMetaRecord extends RecordBase {
  readonly type: 'session-meta';
  readonly cwd?: string;
  readonly cliVersion?: string;
}

/** `event_msg task_started` (alias `turn_started`). */
export interface TurnStartRecord extends RecordBase {
  readonly type: 'turn-start';
  /**
   * `root_turn_id` (0.169): the turn of the root agent this turn works for. A subagent's turn names
   * the parent turn that spawned or tasked it (and a nested subagent's the same root).
   */
  readonly rootTurnId?: string;
  /** `started_at` (Unix seconds) as ISO-8601, used when the line has no timestamp. */
  readonly startedAt?: string;
  readonly contextWindow?: number;
}

/** `event_msg task_complete` (alias `turn_complete`) or `turn_aborted`. */
export interface TurnEndRecord extends RecordBase {
  readonly type: 'turn-end';
  readonly how: 'complete' | 'aborted';
  readonly lastAgentMessage?: string;
}

/** `turn_context` (once per turn) and `thread_settings_applied`: cwd and model. */
export interface TurnContextRecord extends RecordBase {
  readonly type: 'turn-context';
  readonly cwd?: string;
  readonly model?: string;
}

/** A user-role text message, not yet classified (genuine prompt, our checkpoint, harness context…). */
export interface UserTextRecord extends RecordBase {
  readonly type: 'user-text';
  readonly source: MessageSource;
  readonly text: string;
  /**
   * Provenance types from `internal_chat_message_metadata_passthrough.content_item_metadata`
   * (`user`, `agents_md`, `harness`, `skills`…); empty when the line has none (older versions).
   */
  readonly provenance: readonly string[];
  /**
   * Set by the reader: whether this message is one of our delivered checkpoints (a digest the session
   * recorded, or without a record the whole structure of a composed message: core's
   * `isDeliveredCheckpoint`). Undefined (direct callers) → the checkpoint prefix decides.
   */
  readonly ours?: boolean;
}

/** Stop-hook feedback: `HookPrompt` item fragments, or the `<hook_prompt>` user message. */
export interface HookPromptRecord extends RecordBase {
  readonly type: 'hook-prompt';
  readonly source: MessageSource;
  /** Inner texts, raw (XML entities of the `<hook_prompt>` form already decoded). */
  readonly texts: readonly string[];
}

export interface AssistantTextRecord extends RecordBase {
  readonly type: 'assistant-text';
  readonly source: MessageSource;
  readonly text: string;
}

/** A tool call as the model made it (`response_item function_call`, `custom_tool_call`, `local_shell_call`…). */
export interface CallRecord extends RecordBase {
  readonly type: 'call';
  readonly callId: string;
  readonly rawName: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** Shell command text when the call is a shell command (list form already reduced). */
  readonly command?: string;
  /** Raw apply_patch text when the call carries one. */
  readonly patchText?: string;
  /** File path named by the call (`view_image.path`). */
  readonly path?: string;
  /** `write_stdin.session_id`: links the poll to the `exec_command` that started the process. */
  readonly stdinSessionId?: string;
  /** The Responses API namespace of the tool (`collaboration` for 0.169's `spawn_agent`…), when written. */
  readonly namespace?: string;
}

/** The model-facing text result of a call (`function_call_output`, `custom_tool_call_output`). */
export interface CallOutputRecord extends RecordBase {
  readonly type: 'call-output';
  readonly callId: string;
  /** Output body without the `Chunk ID: … Output:` header. */
  readonly body: string;
  readonly exitCode?: number;
  /** `aborted by user`: the command was interrupted before it reported an exit code. */
  readonly aborted: boolean;
  /** The tool reported failure without an exit code (`success:false`, `apply_patch verification failed`…). */
  readonly failed: boolean;
  /** `Process running with session ID N`: still running, polled later with `write_stdin`. */
  readonly runningSessionId?: string;
}

/** Structured command result: 0.169 `CommandExecution` item, or the older `exec_command_end` event. */
export interface CommandResultRecord extends RecordBase {
  readonly type: 'command-result';
  readonly callId: string;
  readonly rawName: 'CommandExecution' | 'exec_command_end';
  readonly command?: string;
  readonly argv?: readonly string[];
  readonly exitCode?: number;
  /** `completed`, `failed`, `declined`, `in_progress`/`inProgress`, or undefined. */
  readonly status?: string;
  readonly output?: string;
  /** `process_id`: links `write_stdin` interactions to their command. */
  readonly processId?: string;
  /** `source`: `user_shell` marks a command the user typed (`!cmd`), not the agent. */
  readonly origin?: string;
}

/** Structured patch result: 0.169 `FileChange` item, or the older `patch_apply_end` event. */
export interface PatchResultRecord extends RecordBase {
  readonly type: 'patch-result';
  readonly callId: string;
  readonly rawName: 'FileChange' | 'patch_apply_end';
  /** Absolute paths (keys of `changes`), plus `move_path` targets. */
  readonly paths: readonly string[];
  readonly status?: string;
  readonly success?: boolean;
  readonly output?: string;
}

/**
 * An item that is call and result at once: `McpToolCall`, `DynamicToolCall`, `WebSearch`,
 * `ImageView` items, and older `mcp_tool_call_end` / `web_search_end` / `view_image_tool_call` events.
 */
export interface ItemToolRecord extends RecordBase {
  readonly type: 'item-tool';
  readonly callId: string;
  readonly rawName: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly path?: string;
  readonly outcome: 'success' | 'error' | 'pending';
  readonly output?: string;
}

/**
 * `item_completed` `SubAgentActivity` (0.169 multi-agent): the `spawn_agent` call `callId` started
 * (`kind: "started"`) a subagent thread whose rollout is `rollout-…-<threadId>.jsonl`.
 */
export interface SubagentRecord extends RecordBase {
  readonly type: 'subagent';
  readonly callId: string;
  readonly kind: string;
  readonly threadId?: string;
  /** `agent_path`: the subagent's canonical task name (`/root/greeter`). */
  readonly agentPath?: string;
}

/**
 * `item_completed` `CollabAgentToolCall` (0.169 multi-agent): a collaboration tool call (`wait`,
 * `followup_task`, `send_message`…) and the subagent threads it addressed.
 */
export interface CollabRecord extends RecordBase {
  readonly type: 'collab';
  readonly callId: string;
  readonly tool: string;
  readonly receiverThreadIds: readonly string[];
}

/** An `item_completed` item of a type the parser does not know (kept so the reader can say so). */
export interface UnknownItemRecord extends RecordBase {
  readonly type: 'unknown-item';
  readonly itemType: string;
}

/** Context-window usage: `event_msg token_count` or `token_usage_record`. */
export interface UsageRecord extends RecordBase {
  readonly type: 'usage';
  readonly source: 'token_count' | 'token_usage_record';
  readonly contextTokens: number;
  readonly outputTokens?: number;
  readonly contextWindow?: number;
}
