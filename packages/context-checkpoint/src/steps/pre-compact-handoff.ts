import type { AgentId, CheckpointOutcome } from '@agent-checkpoint/core';
import type { ContextCheckpointConfig } from '../config/context-config.ts';
import { readContextLevel } from '../context/read-context-level.ts';
import { failuresFromObservations } from '../handoff/failures-from-observations.ts';
import type { HandoffTrigger } from '../handoff/handoff-types.ts';
import { withAutonomousMode } from '../loop/autonomous-mode.ts';
import { settleResumeAtCompaction } from './resume-outcome.ts';
import { NO_HANDOFF_SERVICES, writeCheckpointHandoff, type HandoffServiceSettings } from './write-checkpoint-handoff.ts';

/** Input of {@link writePreCompactHandoff}: the turn so far, as core's pipeline read it. */
export interface PreCompactHandoffInput {
  readonly agent: AgentId;
  readonly sessionId: string | undefined;
  /** `getCheckpoint`'s outcome for the turn so far (no extensions: this is not a turn end). */
  readonly outcome: Pick<CheckpointOutcome, 'timeline' | 'git' | 'result'>;
  /** The session's cwd: handoffs go to the repository root, or here outside a repository. */
  readonly cwd: string;
  readonly config: ContextCheckpointConfig;
  /** The tracker and claude-mem settings (`handoffServicesOf(config)`); default both off. */
  readonly services?: HandoffServiceSettings;
  /** The agent compacts on its own (`auto`) rather than on `/compact`. */
  readonly auto: boolean;
  /** Where the session's state lives (the handoff is recorded there for status lines). */
  readonly stateDir: string;
  readonly now: Date;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
}

/** What {@link writePreCompactHandoff} did: `code` for the hook's log, `warnings` for stderr. */
export interface PreCompactHandoffResult {
  readonly code: 'written' | 'not-written' | 'write-failed';
  readonly detail: string;
  readonly written?: string;
  readonly warnings: readonly string[];
}

/**
 * The PreCompact step (seed 004): write a handoff with trigger `pre-compact (context at N%)` before the
 * agent compacts, or with `directExecution.enabled` run the whole direct checkpoint, and remember it in
 * the session state (best effort). Like every handoff route, it tells the tracker and claude-mem when
 * they are on (`writeCheckpointHandoff`). The caller checked `handoff.enabled`. Never throws.
 */
export async function writePreCompactHandoff(input: PreCompactHandoffInput): Promise<PreCompactHandoffResult> {
  const { outcome } = input;
  const projectRoot = outcome.git?.kind === 'repo' ? outcome.git.root : input.cwd;
  // A running loop switches direct execution on (seed 003's autonomous mode).
  const cc = withAutonomousMode(input.config, { stateDir: input.stateDir, projectRoot, now: input.now }).config;
  // A resume still open in this session did not continue: the session compacts before doing any work.
  const location = input.sessionId !== undefined && input.sessionId !== '' ? { stateDir: input.stateDir, agent: input.agent, sessionId: input.sessionId } : undefined;
  const warnings: string[] = (await settleResumeAtCompaction(location, projectRoot, input.now)).map((note) => `pre-compact: ${note}`);
  const reading = readContextLevel(outcome.timeline?.tokenUsage, { windowTokens: cc.context.windowTokens, thresholds: cc.context.thresholds });
  const trigger: HandoffTrigger = {
    kind: 'pre-compact',
    auto: input.auto,
    ...(reading !== undefined && reading.windowSource !== 'unknown' ? { reading } : {}),
  };
  // The tracker and claude-mem are told as at L3 when the reading is L3, otherwise as at L2: a
  // compaction is a handoff checkpoint whatever the level (a manual /compact may come early).
  const level = trigger.reading?.level === 'L3' ? 'L3' : 'L2';
  const done = await writeCheckpointHandoff({
    route: 'pre-compact',
    agent: input.agent,
    projectRoot,
    content: {
      ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
      trigger,
      ...(outcome.timeline ? { timeline: outcome.timeline } : {}),
      failures: failuresFromObservations(outcome.result?.observations ?? [], outcome.timeline),
      ...(cc.handoff.planFile !== undefined ? { planFile: cc.handoff.planFile } : {}),
    },
    ...(outcome.git ? { git: outcome.git } : {}),
    handoffDir: cc.handoff.dir,
    ...(cc.directExecution.enabled ? { direct: cc.directExecution } : {}),
    services: input.services ?? NO_HANDOFF_SERVICES,
    level,
    ...(trigger.reading !== undefined ? { percent: trigger.reading.displayPercent } : {}),
    ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    stateDir: input.stateDir,
    now: input.now,
    env: input.env,
    signal: input.signal,
  });
  warnings.push(...done.diagnostics.map((note) => `pre-compact: ${note}`));
  let written: string | undefined;
  let detail: string;
  switch (done.kind) {
    case 'executed': {
      const result = done.result;
      written = result.handoff?.relativePath;
      detail = `direct execution: ${result.status}${result.fallbackReason ? ` (${result.fallbackReason})` : ''}`;
      if (result.status === 'fallback') warnings.push(`pre-compact: ${detail}`);
      break;
    }
    case 'failed':
      return { code: 'write-failed', detail: done.error, warnings: [...warnings, `pre-compact: ${done.error}`] };
    case 'written':
      written = done.handoff.relativePath;
      detail = `wrote ${written}`;
      break;
  }
  // The session's state (status lines), the loop state and the metrics were told by `writeCheckpointHandoff`.
  return { code: written !== undefined ? 'written' : 'not-written', detail, ...(written !== undefined ? { written } : {}), warnings };
}
