import type { AgentId, TranscriptReader } from '@agent-checkpoint/core';

/**
 * What every context hook gets from its route (delivery-hook's adapters), besides its event: where
 * it runs, the clock and deadline, a stderr line, and the agent's transcript reader. No payload, no
 * agent format: the route read those.
 */
export interface ContextHookRun {
  readonly agent: AgentId;
  /** The session's working directory, already chosen by the route (payload `cwd`, else its own). */
  readonly cwd: string;
  readonly sessionId: string | undefined;
  readonly stateDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => Date;
  /** Epoch ms after which nothing more may start. */
  readonly deadlineAt: number;
  /** One line for the user (stderr). */
  readonly warn: (line: string) => void;
  /** One line for `--debug` only. */
  readonly debug: (line: string) => void;
  /** The agent's transcript reader, loaded only when a hook needs it. */
  readonly loadTranscriptReader: () => Promise<TranscriptReader>;
}

/**
 * What a context hook decided, for the route to encode in its agent's format: add `text` to the
 * model's context (SessionStart, UserPromptSubmit), or say nothing. `code` and `detail` are for the
 * debug log and tests.
 */
export type ContextHookDecision =
  | { readonly kind: 'add-context'; readonly text: string; readonly code: string; readonly detail: string }
  | { readonly kind: 'nothing'; readonly code: string; readonly detail: string };

/** A decision to say nothing. */
export function nothing(code: string, detail: string): ContextHookDecision {
  return { kind: 'nothing', code, detail };
}
