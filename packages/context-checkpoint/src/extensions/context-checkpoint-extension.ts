import {
  composeMessage,
  errorMessage,
  resolveStateDir,
  type SessionStateLocation,
  type TurnEndExtension,
  type TurnEndExtensionInput,
} from '@agent-checkpoint/core';
import { prepareMetricsEvent } from '../metrics/metrics-events.ts';
import type { TestRun } from '../opt-ins/run-tests.ts';
import { closePendingEstimate, type ClosePendingEstimateResult } from '../steps/pending-estimate.ts';
import { settleResumeAtTurnEnd } from '../steps/resume-outcome.ts';
import { runContextStep, type ContextStepOutput } from '../steps/run-context-step.ts';
import { promoteAndMark } from '../steps/turn-end-marks.ts';
import { testRunExtension } from './test-run-extension.ts';
import { contextCheckpointConfigOf, runTestsConfigOf } from '../config/context-config.ts';

/** `CheckpointOutcome.extensions['context-checkpoint']`: the hook's test run and the context step, when they ran. */
export interface ContextCheckpointDetail {
  readonly tests?: TestRun;
  readonly context?: ContextStepOutput;
}

/**
 * The package's end-of-turn extension, in order: the hook's own test run (`runTests`, which can
 * change the result), then the context step (`context.enabled`: the level's line said once per
 * session; at the handoff level the handoff or direct execution, once per level). The context step
 * sees whether the turn has a message *after* the test run (an L1 line only rides along with one),
 * which is why both live in one extension. Its lines ride along, or at a handoff level block on their
 * own (`blocksAlone`); when the block is granted the pending line becomes the announced level
 * (`onClaimGranted`). Never throws.
 */
export const contextCheckpointExtension: TurnEndExtension<ContextCheckpointDetail> = {
  name: 'context-checkpoint',
  async run(input) {
    const diagnostics: string[] = [];
    const ran = runTestsConfigOf(input.config) === undefined ? {} : await testRunExtension.run(input);
    diagnostics.push(...(ran.diagnostics ?? []));
    const result = ran.result ?? input.result;
    let context: ContextStepOutput | undefined;
    if (contextCheckpointConfigOf(input.config).context.enabled) {
      const hasMessage = ran.result === undefined ? input.hasMessage : composeMessage(result, input.files, input.config, ran.tests ? { tests: ran.tests } : {}) !== undefined;
      context = await runContextStep({
        agent: input.agent,
        location: sessionLocation(input),
        config: input.config,
        timeline: input.timeline,
        git: input.git,
        result,
        projectRoot: input.projectRoot,
        hasMessage,
        now: input.now,
        env: input.env,
        ...(input.signal ? { signal: input.signal } : {}),
        ...(input.commands ? { checkpointCommand: input.commands.agentCheckpoint } : {}),
      });
      diagnostics.push(...context.diagnostics);
      // EST-004: the estimate made at prompt submit meets what the turn actually used.
      const closed = await closeTurnEstimate(input);
      if (closed.kind === 'unmeasured') diagnostics.push(`estimate: ${closed.detail}`);
    }
    // A resume given to this session or loop iteration continued when this turn did work (its outcome, once).
    if (contextCheckpointConfigOf(input.config).handoff.enabled) {
      diagnostics.push(...(await settleResumeAtTurnEnd({ location: sessionLocation(input), projectRoot: input.projectRoot, timeline: input.timeline, now: input.now })));
    }
    const lines = context?.lines ?? [];
    // The L1 line is counted when its block is granted (the line reached the agent), like its mark.
    const countL1Warning = context === undefined ? undefined : await prepareL1WarningCount(input, context, diagnostics);
    return {
      ...(ran.result ? { result } : {}),
      ...(ran.tests ? { tests: ran.tests } : {}),
      ...(lines.length > 0 ? { lines, blocksAlone: context?.blocksAlone === true } : {}),
      detail: { ...(ran.detail ? { tests: ran.detail } : {}), ...(context ? { context } : {}) },
      diagnostics,
      // The pending line becomes announced, and is marked for the monitor (one record of levels acted on).
      ...(context ? { onClaimGranted: promoteAndMark(sessionLocation(input), countL1Warning) } : {}),
    };
  },
};

/**
 * When this turn's context line is the L1 warning: its `l1-warning` metrics event, validated now
 * (the schema loads lazily) and appended by the granted-block callback, which is synchronous.
 * Undefined otherwise (no line, a handoff line, a warning at L2/L3 with handoffs off).
 */
async function prepareL1WarningCount(input: TurnEndExtensionInput, context: ContextStepOutput, diagnostics: string[]): Promise<(() => unknown) | undefined> {
  const { action } = context;
  if (context.lines.length === 0 || action.kind !== 'warn' || action.level !== 'L1') return undefined;
  const location = sessionLocation(input);
  if (location === undefined) return undefined;
  try {
    return await prepareMetricsEvent(
      { stateDir: location.stateDir, projectRoot: input.projectRoot },
      { type: 'alert', at: input.now.toISOString(), kind: 'l1-warning', percent: action.reading.displayPercent },
    );
  } catch (error) {
    diagnostics.push(`metrics: alert not recorded: ${errorMessage(error)}`);
    return undefined;
  }
}

/** The session's state file, when both a session id and a state directory are known. */
function sessionLocation(input: TurnEndExtensionInput): SessionStateLocation | undefined {
  if (input.sessionId === undefined || input.sessionId === '') return undefined;
  try {
    return { stateDir: resolveStateDir({ env: input.env }), agent: input.agent, sessionId: input.sessionId };
  } catch {
    return undefined;
  }
}

/** Close the session's pending prompt estimate, if any (EST-004). */
async function closeTurnEstimate(input: TurnEndExtensionInput): Promise<ClosePendingEstimateResult> {
  const location = sessionLocation(input);
  if (location === undefined) return { kind: 'none' };
  return closePendingEstimate({
    stateDir: location.stateDir,
    projectRoot: input.projectRoot,
    sessionId: location.sessionId,
    usageHistory: input.timeline.usageHistory,
    latest: input.timeline.tokenUsage,
    now: input.now,
  });
}
