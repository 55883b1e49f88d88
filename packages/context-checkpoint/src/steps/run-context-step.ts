import { type AgentId, type CheckpointResult, type ContextLevel, errorMessage, type GitSnapshot, readSessionState, type ResolvedConfig, type SessionStateLocation, type TurnTimeline, updateSessionState } from '@agent-checkpoint/core';
import { contextCheckpointConfigOf } from '../config/context-config.ts';
import { decideContextAction, type ContextAction } from '../context/decide-context-action.ts';
import { implausibleUsage, type KnownContextReading } from '../context/read-context-level.ts';
import { renderDirectResultLine } from '../direct/render-direct-result.ts';
import { failuresFromObservations } from '../handoff/failures-from-observations.ts';
import { recordLoopTurn } from '../loop/loop-steps.ts';
import { withAutonomousMode } from '../loop/autonomous-mode.ts';
import { checkpointStateSnapshot, recordCheckpointState } from '../state/checkpoint-state-snapshot.ts';
import { planContextStep, withPendingLevel } from '../state/session-context.ts';
import { sessionContextOf, withSessionContext } from '../state/session-slots.ts';
import { handoffServicesOf, writeCheckpointHandoff } from './write-checkpoint-handoff.ts';
import { claimTurnEndHandoff, readTurnEndMarks } from './turn-end-marks.ts';

/** Everything the end-of-turn context step needs (a slice of `getCheckpoint`'s work). */
export interface ContextStepInput {
  readonly agent: AgentId;
  /** Where the session remembers what it announced; without it the step is skipped (it could not say things once). */
  readonly location: SessionStateLocation | undefined;
  readonly config: ResolvedConfig;
  readonly timeline: TurnTimeline;
  readonly git: GitSnapshot;
  readonly result: CheckpointResult | undefined;
  /** Repository root (or the cwd outside a repository): where handoffs are written. */
  readonly projectRoot: string;
  /** Whether the turn already has a message to deliver (an L1 warning only rides along on one). */
  readonly hasMessage: boolean;
  readonly now: Date;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
  /** `checkpoint` as the agent runs it on the delivering route (core's `UserCommands.agentCheckpoint`), for the L1 line. */
  readonly checkpointCommand?: string;
}

/** What the context step adds to the turn's message. */
export interface ContextStepOutput {
  readonly action: ContextAction;
  /** Lines for the message's context section (empty: nothing to say this turn). */
  readonly lines: readonly string[];
  /** True when the lines justify a message on their own (a handoff level reached), not only riding along. */
  readonly blocksAlone: boolean;
  /** The handoff written this turn (repo-relative path), and how (`direct` = executeCheckpoint). */
  readonly handoff?: {
    readonly path?: string;
    readonly mode: 'direct' | 'ask-agent';
    readonly status: string;
    /** The WIP commit direct execution made (full sha), for the user's notice. */
    readonly commit?: string;
    /** The level and percentage that triggered it, for the user's notice. */
    readonly level?: ContextLevel;
    readonly percent?: number;
  };
  readonly diagnostics: readonly string[];
}

/**
 * The end-of-turn context step (opt-in, `context.enabled`): read the level from the transcript's
 * token usage, say each level's line once per session, and at the handoff level write the handoff
 * (or, with `directExecution.enabled`, run `executeCheckpoint`) once per level.
 *
 * Decisions (docs/context-checkpoints.md, "End of turn"):
 * - **L1 (warn)** rides along: it is added to a message the turn delivers anyway, and never blocks a
 *   silent turn — a block costs the agent a turn of the very context we warn about.
 * - **Handoff level (L2/L3)** blocks on its own, once per level per session: the handoff is written
 *   here, before delivery (the file exists even if the agent ignores the message), and the agent is
 *   asked to complete it (or told what direct execution did, so it does not redo it).
 * - "Announced" is only recorded when a block carrying the line is granted (`claimCheckpoint`
 *   promotes the pending level), so a message lost to the loop guard is said again next turn.
 * - One record with the monitor (the level marks, `turn-end-marks.ts`): a level the monitor acted on
 *   is neither said nor handed off again here; this step's handoff claims the level's mark, and a
 *   granted line marks it, so the monitor does not repeat them either.
 *
 * Never throws; problems become diagnostics.
 */
export async function runContextStep(input: ContextStepInput): Promise<ContextStepOutput> {
  const output = await runContextStepInner(input);
  // A loop runner's iteration (`.agent-checkpoint/loop-state.json` exists): its peak context (RLP-005).
  // A handoff written now was recorded there already, by `writeCheckpointHandoff` (`recordCheckpoint`).
  const reading = output.action.kind === 'none' && output.action.reason !== 'below-threshold' ? undefined : (output.action.reading as KnownContextReading | undefined);
  if (reading === undefined) return output;
  const loopNotes = [...(await recordLoopTurn({ projectRoot: input.projectRoot, percent: reading.displayPercent, level: reading.level, now: input.now }))];
  // Seed 004's checkpoint state (level, trend, tokens per minute, time to L2), in the session's slot.
  if (input.location !== undefined) {
    const thresholds = contextCheckpointConfigOf(input.config).context.thresholds;
    loopNotes.push(...(await recordCheckpointState(input.location, checkpointStateSnapshot(reading, input.timeline.usageHistory, thresholds, input.now, 'turn-end'))));
  }
  return loopNotes.length === 0 ? output : { ...output, diagnostics: [...output.diagnostics, ...loopNotes] };
}

async function runContextStepInner(input: ContextStepInput): Promise<ContextStepOutput> {
  const diagnostics: string[] = [];
  // A running loop switches direct execution on (seed 003's autonomous mode; `loop/autonomous-mode.ts`).
  const cfg = withAutonomousMode(contextCheckpointConfigOf(input.config), { stateDir: input.location?.stateDir, projectRoot: input.projectRoot, now: input.now }).config;
  const action = decideContextAction(input.timeline.tokenUsage, cfg, input.checkpointCommand);
  const none = (note?: string): ContextStepOutput => ({ action, lines: [], blocksAlone: false, diagnostics: note ? [...diagnostics, note] : diagnostics });
  if (action.kind === 'none' && action.reason !== 'below-threshold') {
    // A forged or corrupt count (1e300 tokens) is no reading: say why once, act on nothing.
    const usage = input.timeline.tokenUsage;
    const implausible = action.reason === 'no-usage' && usage !== undefined ? implausibleUsage(usage) : undefined;
    return none(implausible === undefined ? undefined : `context: ${implausible}`);
  }
  const location = input.location;
  if (location === undefined) return none('context: no session id or state directory; levels are not reported (they could not be said once)');

  const reading = action.reading as KnownContextReading;
  const level: ContextLevel = action.kind === 'none' ? 'L0' : action.level;
  // One record with the monitor: a level it acted on during the turn is not said or handed off again.
  const marks = await readTurnEndMarks(location, { level, percent: reading.percent }, diagnostics);
  const planInput = {
    level,
    wantsLine: action.kind !== 'none' && action.line !== undefined,
    wantsHandoff: action.kind === 'handoff',
    now: input.now,
    monitorActed: marks.monitorActed,
  };
  try {
    const read = await readSessionState(location);
    diagnostics.push(...read.diagnostics);
    const plan = planContextStep(sessionContextOf(read.state), planInput);

    let handoffGranted = false;
    if (plan.handoff) {
      // Claim the handoff under the lock before writing it: concurrent hooks of one session write one.
      const claimed = await updateSessionState(location, (state) => {
        const again = planContextStep(sessionContextOf(state), planInput);
        return again.handoff ? { state: withSessionContext(state, again.next), value: true } : { state: undefined, value: false };
      });
      diagnostics.push(...claimed.diagnostics);
      handoffGranted = claimed.value;
    }
    // The monitor's claim of the same level is the same exclusive file: it may have acted meanwhile.
    const monitorTookIt = handoffGranted && level !== 'L0' && !(await claimTurnEndHandoff(marks, level, input.now, diagnostics));
    if (monitorTookIt) handoffGranted = false;

    const lines: string[] = [];
    let handoff: ContextStepOutput['handoff'];
    if (monitorTookIt) {
      // The monitor wrote the handoff and told the agent at this level: nothing to add.
    } else if (handoffGranted && action.kind === 'handoff') {
      const done = await performHandoff(input, action, reading, diagnostics);
      handoff = done.handoff;
      if (done.directLine !== undefined) {
        lines.push(`Context is at ${reading.displayPercent}% (${level}).`, done.directLine);
      } else {
        if (action.line !== undefined) lines.push(action.line);
        if (done.draftLine !== undefined) lines.push(done.draftLine);
      }
    } else if (plan.announce && action.kind === 'handoff') {
      // Said again (the earlier block was not delivered): point at the handoff already written at
      // this level instead of writing another one.
      const path = sessionContextOf(read.state)?.handoffPath;
      const done = plan.next.handoffLevel === level && path !== undefined;
      if (action.mode === 'direct' && done) lines.push(`Context is at ${reading.displayPercent}% (${level}).`, alreadyWrittenLine(path));
      else {
        if (action.line !== undefined) lines.push(action.line);
        if (done) lines.push(draftLine(path));
      }
    } else if (plan.announce && action.kind !== 'none' && action.line !== undefined) {
      lines.push(action.line);
    }

    const blocksAlone = action.kind === 'handoff' && lines.length > 0;
    const included = lines.length > 0 && (blocksAlone || input.hasMessage);
    const pending = included && plan.announce ? level : undefined;
    const stored = sessionContextOf(read.state);
    if (handoffGranted || plan.changed || pending !== stored?.pendingLevel) {
      const written = await updateSessionState(location, (state) => {
        const again = planContextStep(sessionContextOf(state), { ...planInput, wantsHandoff: false });
        let context = withPendingLevel(again.next, pending);
        if (handoff?.path !== undefined) context = { ...context, handoffPath: handoff.path };
        return { state: { ...withSessionContext(state, context), updatedAt: input.now.toISOString() }, value: undefined };
      });
      diagnostics.push(...written.diagnostics);
    }
    return { action, lines: included ? lines : [], blocksAlone: included && blocksAlone, ...(handoff ? { handoff } : {}), diagnostics };
  } catch (error) {
    return none(`context: ${errorMessage(error)}; no context line this turn`);
  }
}

/** Write the handoff (or execute the checkpoint directly) and say what happened. */
async function performHandoff(
  input: ContextStepInput,
  action: Extract<ContextAction, { kind: 'handoff' }>,
  reading: KnownContextReading,
  diagnostics: string[],
): Promise<{ handoff: NonNullable<ContextStepOutput['handoff']>; directLine?: string; draftLine?: string }> {
  const cfg = contextCheckpointConfigOf(input.config);
  const level = reading.level === 'L2' || reading.level === 'L3' ? reading.level : undefined;
  const done = await writeCheckpointHandoff({
    route: 'turn-end',
    agent: input.agent,
    projectRoot: input.projectRoot,
    content: {
      ...(input.location ? { sessionId: input.location.sessionId } : {}),
      trigger: { kind: 'context' as const, reading },
      timeline: input.timeline,
      failures: failuresFromObservations(input.result?.observations ?? [], input.timeline),
      ...(cfg.handoff.planFile !== undefined ? { planFile: cfg.handoff.planFile } : {}),
    },
    git: input.git,
    handoffDir: cfg.handoff.dir,
    ...(action.mode === 'direct' ? { direct: cfg.directExecution } : {}),
    // The tracker and claude-mem (off by default): the branch's issue goes into the handoff, the comment and the observation go out after it.
    services: handoffServicesOf(input.config),
    ...(level !== undefined ? { level } : {}),
    percent: reading.displayPercent,
    ...(input.location ? { sessionId: input.location.sessionId, stateDir: input.location.stateDir } : {}),
    now: input.now,
    env: input.env ?? process.env,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  diagnostics.push(...done.diagnostics);
  switch (done.kind) {
    case 'executed': {
      const result = done.result;
      const path = result.handoff?.relativePath;
      const directLine = renderDirectResultLine(result);
      const at = { level: reading.level, percent: reading.displayPercent, ...(result.commit ? { commit: result.commit.sha } : {}) };
      if (directLine !== undefined) return { handoff: { mode: 'direct', status: result.status, ...at, ...(path ? { path } : {}) }, directLine };
      diagnostics.push(`context: direct execution fell back (${result.fallbackReason ?? 'unknown reason'}); asking the agent instead`);
      return { handoff: { mode: 'direct', status: result.status, ...at, ...(path ? { path } : {}) }, ...(path ? { draftLine: draftLine(path) } : {}) };
    }
    case 'failed':
      diagnostics.push(`context: ${done.error}`);
      return { handoff: { mode: 'ask-agent', status: 'failed' } };
    case 'written':
      return {
        handoff: { mode: 'ask-agent', status: 'written', path: done.handoff.relativePath, level: reading.level, percent: reading.displayPercent },
        draftLine: draftLine(done.handoff.relativePath),
      };
  }
}

/** The line of a direct checkpoint said again (its result line was not delivered the first time). */
export function alreadyWrittenLine(path: string): string {
  return `Checkpoint: already written at this level, handoff \`${path}\`. Read the handoff before continuing; do not redo this checkpoint.`;
}

/** The line pointing the agent at the handoff we wrote for it. */
export function draftLine(path: string): string {
  return `A handoff draft is at \`${path}\` (what was done, files in progress, failing commands). Complete its Next Steps with what only you know (decisions, open questions) before continuing.`;
}
