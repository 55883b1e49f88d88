import type { AgentId } from '../agent-id.ts';
import type { ToolCall } from './tool-call.ts';

/**
 * Context-window usage as last recorded in the transcript. Formats differ in what they record; the
 * adapter fills what it knows and leaves the rest undefined.
 */
export interface TokenUsage {
  /**
   * Tokens occupying the context window at that point: the prompt side of the latest model call
   * (Claude: `input_tokens + cache_read_input_tokens + cache_creation_input_tokens`; Codex:
   * `last_token_usage.input_tokens`; Gemini: `tokens.input`).
   */
  readonly contextTokens: number;
  /** Output tokens of that call, when recorded. */
  readonly outputTokens?: number;
  /** The model's context window in tokens, when the transcript records it (Codex `model_context_window`). */
  readonly contextWindow?: number;
  /** The model name, when recorded (lets callers look up a window when the transcript has none). */
  readonly model?: string;
  /** ISO-8601 time of the record. */
  readonly timestamp?: string;
}

/** Why a timeline has no data, or what limited it. Shown by `explain` and on stderr in debug mode. */
export interface TimelineDiagnostic {
  readonly level: 'info' | 'warn';
  /** A short stable code (`missing-file`, `corrupt-line`, `cap-reached`, `wrong-agent`…). */
  readonly code: string;
  readonly message: string;
}

/**
 * Everything the agent did in the turn that just ended, normalized across agents.
 *
 * A "turn" starts at the genuine user prompt (or the agent's own turn id) and includes everything up
 * to now, **including** continuations after a Stop-hook block: evidence produced after a checkpoint
 * counts for that same turn.
 */
export interface TurnTimeline {
  readonly agent: AgentId;
  /**
   * False when the transcript was missing, unreadable, of another agent, or had no recognisable turn.
   * Heuristics that need the transcript are skipped and the file axis falls back to all uncommitted
   * files. `calls` is empty in that case.
   */
  readonly hasData: boolean;
  /**
   * A stable identity for the turn, used by the loop guard: Claude `promptId`, Codex `turn_id`,
   * Gemini a digest of the prompt text and the boundary message id. Undefined when unknown.
   *
   * When the agent gives two turns the same id (Claude reuses the previous `prompt_id` for a slash
   * command or skill turn), the reader refines it: `<agent id>#<opening entry id>` (see
   * {@link refinesTurnId}), so the loop guard counts the later turn's blocks apart.
   */
  readonly turnId?: string;
  /** ISO-8601 time of the turn's opening user prompt, when known. */
  readonly startedAt?: string;
  /** Text of the user prompt that opened the turn (first 2,000 characters). */
  readonly prompt?: string;
  /** Tool calls of the turn, in the order they were made. */
  readonly calls: readonly ToolCall[];
  /**
   * How many of our own checkpoint messages were delivered into this turn so far (Claude `Stop hook
   * feedback:` entries carrying our prefix, Gemini user messages starting with it, Codex `<hook_prompt>`
   * items carrying it).
   */
  readonly checkpointsDelivered: number;
  /**
   * The text of the last user-role message in the transcript, whatever its origin (real prompt or our
   * own injected checkpoint). The tmux route uses it to avoid checkpointing its own checkpoint turn.
   */
  readonly lastUserMessage?: string;
  /** The agent's final text of the turn, when available. */
  readonly lastAssistantMessage?: string;
  /** Latest context-window usage within the read window. */
  readonly tokenUsage?: TokenUsage;
  /** Up to the last 20 usage records within the read window, oldest first (for growth estimates). */
  readonly usageHistory?: readonly TokenUsage[];
  /**
   * True when the turn boundary lay beyond the byte cap of the bounded read: the timeline holds only
   * the tail of the turn. Heuristics that depend on earlier calls (edit-without-read) must not fire
   * on a truncated timeline.
   */
  readonly truncated: boolean;
  /** The session working directory recorded in the transcript, when present. */
  readonly cwd?: string;
  /** CLI version recorded in the transcript, when present. */
  readonly cliVersion?: string;
  /**
   * How much of the file was read to build this timeline. Readers read only the tail, so `bytesRead`
   * stays bounded by the byte cap whatever `fileBytes` is (benchmarks and tests assert it).
   */
  readonly readStats?: { readonly bytesRead: number; readonly fileBytes: number };
  readonly diagnostics: readonly TimelineDiagnostic[];
}

/** A timeline that says "no transcript data", with one diagnostic explaining why. */
export function emptyTimeline(agent: AgentId, diagnostic?: TimelineDiagnostic): TurnTimeline {
  return {
    agent,
    hasData: false,
    calls: [],
    checkpointsDelivered: 0,
    truncated: false,
    diagnostics: diagnostic ? [diagnostic] : [],
  };
}

/**
 * True when a reader's `turnId` names the same turn as the agent's payload id or a refinement of it
 * (`<payload id>#<opening entry id>`, a turn to which the agent gave a previous turn's id). A reader id
 * of any other form (it found another turn, e.g. the payload's turn is not in the bytes read yet)
 * never replaces the payload's id.
 */
export function refinesTurnId(payloadId: string, readerId: string | undefined): readerId is string {
  return readerId !== undefined && (readerId === payloadId || (readerId.startsWith(`${payloadId}#`) && readerId.length > payloadId.length + 1));
}
