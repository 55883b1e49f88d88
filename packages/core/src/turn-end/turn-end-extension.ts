import type { AgentId } from '../agent-id.ts';
import type { ResolvedConfig } from '../config/config-schema.ts';
import type { AttributedFile, CheckpointResult } from '../engine/checkpoint-result.ts';
import type { UserCommands } from '../engine/user-commands.ts';
import type { GitSnapshot } from '../git/changed-file.ts';
import type { SessionState } from '../state/session-state.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';

/**
 * A feature that acts on a turn's decision after core has made it — the context checkpoint system
 * (levels, handoffs, direct execution), the hook's own test run. Core's pipeline stays read-only and
 * knows none of them: a route passes the extensions the configuration asks for (loaded lazily, so the
 * default path never evaluates them), and the pipeline runs each, in order, after the heuristics and
 * before the message is final.
 *
 * Contract:
 * - `run` should not throw; if it does, the pipeline records a diagnostic and keeps the decision as it
 *   was (an extension can never turn a checkpoint into a crash or a silent pass);
 * - an extension may write only what its own configuration names (a handoff directory, a WIP commit
 *   when the user enabled direct execution) — never core's decision inputs;
 * - the output only *amends* the decision: a replaced result, lines for the message's context section,
 *   a test report. Core recomposes the message from them, so the text stays byte-identical across
 *   routes.
 */
export interface TurnEndExtension<Detail = unknown> {
  /** Stable name: the key of its detail in `CheckpointOutcome.extensions`, and in diagnostics. */
  readonly name: string;
  run(input: TurnEndExtensionInput): Promise<TurnEndExtensionOutput<Detail>>;
}

/** The pipeline's state right after the heuristics (and after any earlier extension). */
export interface TurnEndExtensionInput {
  readonly agent: AgentId;
  /** Undefined when the route has no session id (then nothing per-session may be recorded). */
  readonly sessionId: string | undefined;
  readonly config: ResolvedConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeline: TurnTimeline;
  readonly git: GitSnapshot;
  readonly files: readonly AttributedFile[];
  /** The result as it stands (an earlier extension may have replaced core's). */
  readonly result: CheckpointResult;
  /** True when the message composed so far says something (the turn will block regardless). */
  readonly hasMessage: boolean;
  readonly projectRoot: string;
  readonly now: Date;
  /** The route's time budget; long work (a test run) must stop when it aborts. */
  readonly signal?: AbortSignal;
  /** How the route spells our commands (a line asking the agent to run one names this form); default the CLI on the PATH. */
  readonly commands?: UserCommands;
}

/** What one extension changes. Every field is optional: an empty output leaves the decision as it was. */
export interface TurnEndExtensionOutput<Detail = unknown> {
  /** A replacement result (e.g. a failing test run added as an observation). */
  readonly result?: CheckpointResult;
  /** The hook's own test run, rendered under the message header. */
  readonly tests?: { readonly headline: string; readonly outputTail?: string };
  /** Lines for the message's context section. */
  readonly lines?: readonly string[];
  /**
   * True when `lines` justify a message on their own (a handoff level reached); otherwise they only
   * ride along with a message the turn delivers anyway (outcome mode `context` when alone).
   */
  readonly blocksAlone?: boolean;
  /** Machine-readable detail for `explain` and debug logs (`CheckpointOutcome.extensions[name]`). */
  readonly detail?: Detail;
  readonly diagnostics?: readonly string[];
  /**
   * Bookkeeping for when the block carrying this message is granted (`claimCheckpoint`'s `onGranted`,
   * run under the session lock): e.g. a context line that reached the agent becomes the announced level.
   * Pure; never called when the claim is refused.
   */
  readonly onClaimGranted?: (state: SessionState, now: Date) => SessionState;
}
