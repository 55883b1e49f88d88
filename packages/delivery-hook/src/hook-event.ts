import type { AgentId, TurnHint } from '@agent-checkpoint/core/hot-path';

/**
 * A hook payload after validation, in the same shape for every agent. Only the fields the hook uses;
 * everything else in the payload is ignored (agents add fields in new versions).
 */
export interface HookEvent {
  readonly agent: AgentId;
  /** `hook_event_name` as the agent sent it (undefined when absent). */
  readonly eventName: string | undefined;
  /**
   * True for the turn-end event this hook handles: Claude `Stop`, Gemini `AfterAgent`, Codex `Stop`.
   * A payload without `hook_event_name` counts as one (the hook is only installed for these events).
   */
  readonly isTurnEnd: boolean;
  readonly sessionId?: string;
  readonly transcriptPath?: string;
  readonly cwd?: string;
  /**
   * The agent's re-entry flag: true when this stop follows one of our blocks. Claude and Codex keep it
   * true for the rest of the turn; Gemini resets it after a tool call.
   */
  readonly stopHookActive: boolean;
  /** What the payload says about the turn (Claude `prompt_id`, Codex `turn_id`, Gemini `prompt`…). */
  readonly hint: TurnHint;
  /** Claude: background tasks still running when the turn ended (0 for the other agents). */
  readonly runningBackgroundTasks: number;
  /**
   * For an agent whose transcript lags behind its turn-end hook (Copilot CLI): waits, until
   * `deadlineAt` at the latest, for the transcript at `path` to hold this stop, and resolves to a
   * warning when it never did (the turn is then decided on what is there). Absent: the transcript is
   * complete when the hook runs.
   */
  readonly awaitTranscript?: (path: string | undefined, deadlineAt: number) => Promise<string | undefined>;
}

/** Result of reading one agent's payload. */
export type PayloadReadResult =
  | { readonly kind: 'event'; readonly event: HookEvent }
  | { readonly kind: 'invalid'; readonly detail: string };
