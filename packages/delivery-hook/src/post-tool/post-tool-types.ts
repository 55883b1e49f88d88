import type { AgentId } from '@agent-checkpoint/core/hot-path';
import type { CheckpointStateSnapshot, MonitorActingAction, MonitorSession } from '@agent-checkpoint/context-checkpoint/monitor';

/** What the post-tool hook decided: its exact stdout, and a code and detail for the debug log and tests. */
export interface PostToolResult {
  readonly output: string;
  readonly code: string;
  readonly detail: string;
}

/**
 * What the monitor's parts need besides the payload. Its own module (not the gate's) so the gate, the
 * decision part and the acting part import types from here and never from each other.
 */
export interface PostToolContext {
  readonly agent: AgentId;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Fallback when the payload has no usable `cwd`. */
  readonly processCwd: string | undefined;
  /** Where the session states and switches live (`resolveStateDir`); resolved only past the gate. */
  readonly stateDir: () => string;
  /** The user configuration file (core's `userConfigPath`). */
  readonly userConfigFile: string;
  readonly now: () => Date;
  /** Epoch ms after which nothing more may start. */
  readonly deadlineAt: number;
  /** One stderr line. */
  readonly warn: (line: string) => void;
  /**
   * The part after the gate (context checkpoints are on): the switches, the usage, the decision, the
   * claim, the L1 answer. Loaded only then, so a disabled monitor parses none of it.
   */
  readonly loadMonitor: () => Promise<MonitorAfterGate>;
  /**
   * Carry out an L2/L3 action (handoff, emergency commit): loaded only when the monitor acts, because
   * it needs the full configuration loader and the handoff and git code.
   */
  readonly act: (request: MonitorActRequest) => Promise<MonitorActResult>;
  /**
   * `checkpoint` as the agent runs it on the route this hook was installed by (an L1 alert names
   * it): loaded only when an alert does, since the route's command forms live with the agent profiles.
   */
  readonly checkpointCommand: (agent: AgentId, env: Readonly<Record<string, string | undefined>>) => Promise<string>;
  /**
   * Record a delivered L1 warning in the project's metrics log (`report`). Loaded with the acting
   * part (the metrics schemas need zod): at most once per session and climb, since only the hook that
   * claimed the level warns. Resolves to a diagnostic when the write failed.
   */
  readonly recordAlert: (record: MonitorAlertRecord) => Promise<string | undefined>;
  /**
   * Record seed 004's checkpoint state in the session state (the status line and `checkpoint --status`
   * read it). Loaded with the acting part (the session state needs zod and the state lock), and only
   * when the monitor's throttle says a write is due (a new level, an action, or 30 s since the last).
   * Resolves to diagnostics; never rejects for a failed write.
   */
  readonly recordState: (record: MonitorStateRecord) => Promise<readonly string[]>;
}

/** A checkpoint-state snapshot the monitor measured, for the session's state file. */
export interface MonitorStateRecord {
  readonly stateDir: string;
  readonly agent: AgentId;
  readonly sessionId: string;
  readonly snapshot: CheckpointStateSnapshot;
}

/** The monitor's L1 warning, delivered after a tool call, for the metrics log. */
export interface MonitorAlertRecord {
  readonly stateDir: string;
  /** The session's project (`findProjectRoot`), the metrics log's key as `report` reads it. */
  readonly projectRoot: string;
  readonly at: Date;
  /** The context's displayed percentage when the warning was given. */
  readonly percent: number;
}

/** The decision part's entry (post-tool/monitor-decide-part.ts). */
export type MonitorAfterGate = (session: MonitorSession, ctx: PostToolContext, writeMark?: string) => Promise<PostToolResult>;

/** An acting decision handed to the acting code, which re-checks it against the full configuration. */
export interface MonitorActRequest {
  readonly agent: AgentId;
  readonly action: MonitorActingAction;
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly cwd: string;
  readonly stateDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: Date;
  readonly deadlineAt: number;
}

/** What the acting code did: the texts to deliver (undefined: say nothing). */
export interface MonitorActResult {
  readonly context?: string;
  readonly userMessage?: string;
  readonly code: string;
  readonly detail: string;
  readonly warnings: readonly string[];
}
