import type { ConfigSectionSource } from './config/config-section.ts';
import type { AgentId } from './agent-id.ts';
import type { ResolvedConfig, ConfigSource } from './config/config-schema.ts';
import type { AttributedFile, CheckpointResult } from './engine/checkpoint-result.ts';
import type { UserCommands } from './engine/user-commands.ts';
import type { GitSnapshot } from './git/changed-file.ts';
import type { TurnTimeline } from './timeline/turn-timeline.ts';
import type { TranscriptReader, TurnHint } from './transcript/transcript-reader.ts';
import type { SessionState } from './state/session-state.ts';
import type { TurnEndExtension } from './turn-end/turn-end-extension.ts';

/** Input of {@link getCheckpoint}: everything a delivery route knows at the end of a turn. */
export interface CheckpointRequest {
  readonly agent: AgentId;
  /** Session working directory (hook payload `cwd`). */
  readonly cwd: string;
  /** The transcript, when the route has one. */
  readonly transcript?: {
    readonly reader: TranscriptReader;
    readonly path: string;
    readonly hint?: TurnHint;
    /** `ReadTurnRequest.deliveredDigests`: the session's delivered checkpoint digests, from its state. */
    readonly deliveredDigests?: readonly string[];
  };
  /** Session id, for the escape-hatch text and state keys. */
  readonly sessionId?: string;
  /** A pre-resolved config (tests, `explain --config`); otherwise loaded from cwd and the user dir. */
  readonly config?: ResolvedConfig;
  /** Overrides the clock (tests). */
  readonly now?: Date;
  /** Environment (defaults to process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Overall time budget; git and transcript reads are cut short past it. */
  readonly signal?: AbortSignal;
  /**
   * The same budget as a time (`Date.now()` clock, ms), for synchronous work no timer can interrupt:
   * transcript parsing stops there (`ReadTurnRequest.deadlineAt`).
   */
  readonly deadlineAt?: number;
  /**
   * Features that amend the decision after the heuristics (the opt-ins; the context checkpoint
   * package), run in order. None by default: core alone never runs a command or writes a file.
   */
  readonly extensions?: readonly TurnEndExtension[];
  /** Config sections for loading the config when {@link config} is not given (see `LoadConfigOptions.sections`). */
  readonly configSections?: ConfigSectionSource;
  /** How a person runs our commands on this route, for the escape hatch (default: the CLI on the PATH). */
  readonly commands?: UserCommands;
}

/**
 * Result of {@link getCheckpoint}. `message` is what every route delivers; `silent` means let the
 * stop pass. The other fields explain the decision (`explain`, debug logs).
 */
export interface CheckpointOutcome {
  readonly decision: 'message' | 'silent';
  /** The text to deliver, byte-identical across routes. Present when decision is `message`. */
  readonly message?: string;
  /** Why the outcome is what it is (`actionable`, `all-clear`, `no-changes`, `disabled`, `generic-fallback`…). */
  readonly mode: string;
  readonly result?: CheckpointResult;
  readonly timeline?: TurnTimeline;
  readonly git?: GitSnapshot;
  readonly files: readonly AttributedFile[];
  readonly configSources: readonly ConfigSource[];
  /**
   * Each extension's machine-readable detail, by `TurnEndExtension.name` (present when extensions
   * ran): e.g. `opt-ins` holds the hook's test run and the context step.
   */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /**
   * State bookkeeping the extensions ask for when this message's block is granted (the context line
   * it carries becomes the announced level): a route passes it to `claimCheckpoint` as `onGranted`.
   */
  readonly onClaimGranted?: (state: SessionState, now: Date) => SessionState;
  /** Human-readable notes on anything that went wrong or was skipped. Never on stdout. */
  readonly diagnostics: readonly string[];
}
