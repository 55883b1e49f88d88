import { readOffSwitch, type OffSwitchState } from '../state/off-switches.ts';

/**
 * What a route knows about a turn end before anything is loaded: the first step of the turn-end
 * pipeline. Kept in its own module, exported from `@agent-checkpoint/core/hot-path`, because the
 * escape-hatch stop (the one after every block) must not evaluate the rest of core.
 */
export interface EarlyTurnEndFacts {
  readonly stateDir: string;
  /** The session's state key; undefined reads only the global switches. */
  readonly sessionId: string | undefined;
  /** The repository root of the session's cwd (`findProjectRoot`), for the per-project switch. */
  readonly projectRoot?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The agent's escape hatch: this stop follows our own block (`stop_hook_active`). Routes without one
   * (tmux) leave it undefined and recognise their own messages instead (`TurnEndEvent.recogniseOwnCheckpoints`).
   */
  readonly stopHookActive?: boolean;
  /** Background tasks the agent reports still running: the turn is not over for the user. */
  readonly runningBackgroundTasks?: number;
}

/** Why a turn end passed before the pipeline loaded anything. */
export type EarlyTurnEndPassReason = 'stop-hook-active' | 'background-tasks' | 'switched-off';

/** Result of {@link checkTurnEndEarly}. */
export type EarlyTurnEndResult =
  | {
      readonly kind: 'pass';
      readonly reason: EarlyTurnEndPassReason;
      readonly detail: string;
      /** The off switches, when they were read (not for the escape hatch or background tasks). */
      readonly offSwitch?: OffSwitchState;
      readonly diagnostics: readonly string[];
    }
  | {
      readonly kind: 'continue';
      /** Pass it on as `TurnEndEvent.offSwitch`, so the pipeline does not read the switches again. */
      readonly offSwitch: Extract<OffSwitchState, { off: false }>;
      readonly diagnostics: readonly string[];
    };

/**
 * The cheap passes, in order: the escape hatch, running background tasks, the off switches (env,
 * global, project, session). Reads at most two small files. Never throws.
 */
export async function checkTurnEndEarly(facts: EarlyTurnEndFacts): Promise<EarlyTurnEndResult> {
  if (facts.stopHookActive === true) return { kind: 'pass', reason: 'stop-hook-active', detail: 'stop_hook_active is true', diagnostics: [] };
  const tasks = facts.runningBackgroundTasks ?? 0;
  if (tasks > 0) return { kind: 'pass', reason: 'background-tasks', detail: `${tasks} background task(s) still running`, diagnostics: [] };
  const offSwitch = await readOffSwitch({ stateDir: facts.stateDir, sessionId: facts.sessionId, projectRoot: facts.projectRoot, env: facts.env });
  if (offSwitch.off) {
    return {
      kind: 'pass',
      reason: 'switched-off',
      detail: `checkpoints are off (${offSwitch.source}: ${offSwitch.detail})`,
      offSwitch,
      diagnostics: offSwitch.diagnostics,
    };
  }
  return { kind: 'continue', offSwitch, diagnostics: offSwitch.diagnostics };
}
