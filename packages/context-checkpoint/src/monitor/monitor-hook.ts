import type { AgentId } from '@agent-checkpoint/core';
import type { LatestUsage, ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import { DEFAULT_CONTEXT_THRESHOLDS } from '../config/context-config.ts';
import { estimateContextGrowth } from '../context/estimate-context-growth.ts';
import { implausibleUsage, readContextLevel, type ContextReading } from '../context/read-context-level.ts';
import { readPendingTaskBand } from '../estimate/pending-estimate-file.ts';
import { checkpointStateSnapshot } from '../state/measure-checkpoint-state.ts';
import type { CheckpointStateSnapshot } from '../state/session-slots.ts';
import { claimCheckpointStateWrite } from './checkpoint-state-due.ts';
import { decideMonitorAction } from './decide-monitor-action.ts';
import { claimMark, lowerMarks, monitorMarksDir, readMarks } from './level-marks.ts';
import type { MonitorAction } from './monitor-action.ts';
import { readMonitorDeferral } from './monitor-deferral.ts';
import { checkMonitorSwitches } from './monitor-switches.ts';
import type { MonitorSession } from './open-monitor-hook.ts';

/** What the monitor gets from its route besides the session. */
export interface MonitorHookRun {
  readonly agent: AgentId;
  /** Where the session states, switches and level marks live. */
  readonly stateDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => Date;
  /** Epoch ms after which nothing more may start. */
  readonly deadlineAt: number;
  /** One stderr line. */
  readonly warn: (line: string) => void;
  /** The agent's tail reader of the newest usage record (MON-001). */
  readonly readLatestUsage: (request: ReadLatestUsageRequest) => LatestUsage | undefined;
}

/** An L2/L3 decision the route hands to the acting part, which re-checks it with the full configuration. */
export type MonitorActingAction = Extract<MonitorAction, { kind: 'handoff' | 'emergency' }>;

/**
 * What the monitor decided after one tool call, for the route to encode or carry out; with
 * `checkpointState` when seed 004's checkpoint state is due to be recorded (a new level, an action, or
 * 30 s since the last write: `checkpoint-state-due.ts`), which the route writes to the session state
 * (`recordCheckpointState`, with the zod schema and the lock this bundle does not load).
 */
export type MonitorHookDecision = MonitorHookVerdict & { readonly checkpointState?: CheckpointStateSnapshot };

/** The monitor's decision proper. */
export type MonitorHookVerdict =
  | { readonly kind: 'nothing'; readonly code: string; readonly detail: string }
  /**
   * L1: add the warning to the model's context. This hook claimed the level, so this is the one time
   * the session gets it: the route records it (`percent`, the displayed context percentage) once
   * delivered.
   */
  | { readonly kind: 'add-context'; readonly level: 'L1'; readonly percent: number; readonly text: string; readonly code: string; readonly detail: string }
  /** L2/L3: this hook claimed the level; the route runs the acting part. */
  | { readonly kind: 'act'; readonly action: MonitorActingAction; readonly code: string; readonly detail: string };

/**
 * The monitor after the first half of its early check (MON-001..004): the off switches with the
 * project root (`checkMonitorSwitches`), the newest usage record from the transcript's tail
 * (MON-001), its growth (MON-002), `decideMonitorAction` (forecast and trajectory MON-003, Principle 1,
 * once per level MON-004), then the exclusive claim of the level. Route-neutral: the route encodes
 * `add-context` and carries out `act`. Never throws on bad state files (stderr notes instead).
 */
export async function runMonitorHook(session: MonitorSession, run: MonitorHookRun): Promise<MonitorHookDecision> {
  const pass = (code: string, detail: string): MonitorHookVerdict => ({ kind: 'nothing', code, detail });
  const { probe } = session;
  const switches = await checkMonitorSwitches(session, run.stateDir, run.env);
  for (const note of switches.diagnostics) run.warn(note);
  if (switches.kind === 'switched-off') return pass('switched-off', switches.detail);
  const latest = run.readLatestUsage({ transcriptPath: session.transcriptPath, deadlineAt: run.deadlineAt });
  // A forged or corrupt count (1e300 tokens) is no reading: no level, no action, one line saying why.
  const implausible = latest?.usage !== undefined ? implausibleUsage(latest.usage) : undefined;
  if (implausible !== undefined) run.warn(`post-tool: ${implausible}`);
  const reading = readContextLevel(latest?.usage, {
    ...(probe.windowTokens !== undefined ? { windowTokens: probe.windowTokens } : {}),
    ...(probe.thresholds !== undefined ? { thresholds: probe.thresholds } : {}),
  });
  const marksDir = monitorMarksDir(run.stateDir, run.agent, session.sessionId);
  // A marks directory that is a link or not private (planted: the state directory's path is handed to
  // the agent) is never read, written or deleted through: the monitor then acts on nothing.
  const unusable = (error: unknown): MonitorHookVerdict => {
    const why = error instanceof Error ? error.message : String(error);
    run.warn(`post-tool: level marks unusable (${why}); doing nothing`);
    return pass('marks-unusable', why);
  };
  let marks: Awaited<ReturnType<typeof readMarks>>;
  try {
    marks = await readMarks(marksDir);
    // A reading below a mark's (a compaction, /clear) forgets it, so the next climb is acted on again.
    if (reading?.level !== undefined && marks.length > 0) marks = await lowerMarks(marksDir, marks, reading);
  } catch (error) {
    return unusable(error);
  }
  // "One more task" (`checkpoint --defer`), live until the turn end consumes it.
  const deferral = readMonitorDeferral({ stateDir: run.stateDir, agent: run.agent, sessionId: session.sessionId });
  if (deferral.diagnostic !== undefined) run.warn(`post-tool: ${deferral.diagnostic}`);
  // The current task's size from the estimate the prompt hook made at this turn's submit (P1: a large
  // task hands off early, a small one may finish first). None without the prompt hook.
  const task = reading?.level !== undefined ? readPendingTaskBand(run.stateDir, session.sessionId, reading.contextWindow) : {};
  if (task.diagnostic !== undefined) run.warn(`post-tool: ${task.diagnostic}`);
  const action = decideMonitorAction({
    reading,
    growth: estimateContextGrowth(latest?.history),
    ...(task.band !== undefined ? { taskSize: task.band } : {}),
    // The marks are both routes' record (the turn end marks its handoffs and delivered lines).
    announced: marks.map((mark) => mark.level),
    ...(deferral.deferred !== undefined ? { deferred: deferral.deferred } : {}),
    ...(probe.thresholds !== undefined ? { config: { thresholds: probe.thresholds } } : {}),
  });
  // Seed 004's checkpoint state, measured after every call, recorded when due (with the verdict).
  const withState = (verdict: MonitorHookVerdict): MonitorHookDecision => {
    const checkpointState = dueCheckpointState(reading, latest?.history, verdict.kind !== 'nothing', marksDir, probe.thresholds, run);
    return checkpointState === undefined ? verdict : { ...verdict, checkpointState };
  };
  if (action.kind === 'none') return withState(pass(`none:${action.reason}`, describe(action)));
  // Once per level per session, even with parallel tool calls: the exclusive mark decides who acts.
  let claimed: boolean;
  try {
    claimed = await claimMark(marksDir, { level: action.level, by: 'monitor', readingLevel: action.reading.level, readingPercent: action.reading.percent }, run.now());
  } catch (error) {
    return unusable(error);
  }
  if (!claimed) return withState(pass('already-claimed', `${action.level} was claimed by another hook`));

  switch (action.kind) {
    case 'warn':
      if (action.text === undefined) return withState(pass('warned-silently', 'L1 text configured empty'));
      return withState({ kind: 'add-context', level: action.level, percent: action.reading.displayPercent, text: action.text, code: 'warned', detail: describe(action) });
    case 'handoff':
    case 'emergency':
      return withState({ kind: 'act', action, code: action.kind, detail: describe(action) });
  }
}

/**
 * The snapshot to record after this call, or undefined: no known window (no level, no percentage),
 * or the throttle says not yet. A note that cannot be read or written is one stderr line and no
 * write: the decision stands either way.
 */
function dueCheckpointState(
  reading: ContextReading | undefined,
  history: LatestUsage['history'] | undefined,
  acted: boolean,
  marksDir: string,
  thresholds: MonitorSession['probe']['thresholds'],
  run: MonitorHookRun,
): CheckpointStateSnapshot | undefined {
  if (reading === undefined || reading.windowSource === 'unknown') return undefined;
  const now = run.now();
  const snapshot = checkpointStateSnapshot(reading, history, thresholds ?? DEFAULT_CONTEXT_THRESHOLDS, now, 'monitor');
  try {
    return claimCheckpointStateWrite(marksDir, snapshot, acted, now) === undefined ? undefined : snapshot;
  } catch (error) {
    run.warn(`post-tool: the checkpoint state is not recorded: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function describe(action: MonitorAction): string {
  const percent = action.reading && action.reading.windowSource !== 'unknown' ? ` at ${action.reading.displayPercent}%` : '';
  return action.kind === 'none' ? `${action.reason}${percent}` : `${action.kind} ${action.level} (${action.reason})${percent}`;
}
