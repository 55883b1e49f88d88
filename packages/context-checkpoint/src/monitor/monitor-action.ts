import type { ContextGrowth } from '../context/estimate-context-growth.ts';
import type { ContextReading, KnownContextReading } from '../context/read-context-level.ts';
import type { TaskBand } from '../estimate/task-band.ts';
import type { MonitorConfig, MonitorConfigInput } from './monitor-config.ts';
import type { NextLevelForecast } from './forecast-next-level.ts';

/** The levels the monitor acts on; each at most once per session. */
export type MonitorLevel = 'L1' | 'L2' | 'L3';

/**
 * Why an action was chosen: the plain level `threshold`, or one of seed 004's Principle 1 rules
 * (`large-task`: 60 % + large task → hand off at 70 %; `small-task`: 80 % + small task → finish, then
 * hand off; `p1-emergency`: 90 % → emergency) or the measured `trajectory` (the next call would cross
 * the next level).
 */
export type MonitorReason = 'threshold' | 'large-task' | 'small-task' | 'p1-emergency' | 'trajectory';

/**
 * The user deferred the alerts "for one more task" (seed 004, risks: "allow user to defer L1/L2"):
 * actions up to `upTo` are held back. An emergency is never deferred. The deferral lives in the
 * session state until the next turn end consumes it (`planContextStep`).
 */
export interface MonitorDeferral {
  readonly upTo: 'L1' | 'L2';
}

/** Input of {@link decideMonitorAction}. */
export interface DecideMonitorActionInput {
  /** `readContextLevel(latest.usage, …)`; undefined when the transcript has no usage yet. */
  readonly reading: ContextReading | undefined;
  /** `estimateContextGrowth(latest.history, …)`: the pace behind the forecast and the trajectory rule. */
  readonly growth?: ContextGrowth | undefined;
  /** The task estimator's size of the current task, when it ran (EST-001). */
  readonly taskSize?: TaskBand | undefined;
  /** Levels already acted on in this session, by either route (the level marks, `level-marks.ts`). */
  readonly announced: readonly MonitorLevel[];
  readonly deferred?: MonitorDeferral | undefined;
  /** The tracker issue of the branch (`ANV-123`), for the L2/L3 text. Untrusted. */
  readonly issueId?: string | undefined;
  readonly config?: MonitorConfig | MonitorConfigInput | undefined;
}

/** Fields every acting {@link MonitorAction} carries. */
interface ActingAction {
  readonly reason: MonitorReason;
  readonly reading: KnownContextReading;
  /** Distance and pace to the next level (MON-002/003). */
  readonly forecast: NextLevelForecast;
  /** The alert for the agent (seed texts by default), safe for model context; absent when configured `""`. */
  readonly text?: string;
}

/**
 * What the PostToolUse / AfterTool hook should do after a tool call (MON-004, RLP-002):
 *
 * - `none`: nothing (no usage, unknown window, below every rule, the level was already acted on,
 *   or the user deferred it);
 * - `warn` (L1): add `text` as context; nothing is written;
 * - `handoff` (L2): write the handoff and ask the agent to finish the current step (`after-step`) or
 *   its current small task (`after-task`), then hand off;
 * - `emergency` (L3): emergency handoff and WIP commit now.
 *
 * `level` is the level the action stands for (record it as announced), which may lie above the
 * reading's own level when a Principle 1 rule or the trajectory acted early.
 */
export type MonitorAction =
  | {
      readonly kind: 'none';
      readonly reason: 'no-usage' | 'unknown-window' | 'below-threshold' | 'already-announced' | 'deferred';
      readonly reading?: ContextReading;
      /** For `already-announced` / `deferred`: the level whose action was held back. */
      readonly heldBack?: MonitorLevel;
    }
  | ({ readonly kind: 'warn'; readonly level: 'L1' } & ActingAction)
  | ({ readonly kind: 'handoff'; readonly level: 'L2'; readonly timing: 'after-step' | 'after-task' } & ActingAction)
  | ({ readonly kind: 'emergency'; readonly level: 'L3' } & ActingAction);

/** The acting kinds, in increasing severity. */
export type MonitorActionKind = MonitorAction['kind'];

/** Severity of an action kind: none 0 < warn 1 < handoff 2 < emergency 3. */
export function monitorSeverity(kind: MonitorActionKind): number {
  switch (kind) {
    case 'none':
      return 0;
    case 'warn':
      return 1;
    case 'handoff':
      return 2;
    case 'emergency':
      return 3;
  }
}
