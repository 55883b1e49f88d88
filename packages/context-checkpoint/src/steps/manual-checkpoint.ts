import type { AgentId, CheckpointOutcome, ResolvedConfig } from '@agent-checkpoint/core';
import { contextCheckpointConfigOf, handoffServicesOf } from '../config/context-config.ts';
import type { KnownContextReading } from '../context/read-context-level.ts';
import { failuresFromObservations } from '../handoff/failures-from-observations.ts';
import { writeCheckpointHandoff, type CheckpointHandoffOutcome } from './write-checkpoint-handoff.ts';

/**
 * The configuration to read a turn so far with core's pipeline outside a turn end (the manual
 * checkpoint): no hook test run and no context step, which belong to turn ends.
 */
export function configForTurnSoFar(config: ResolvedConfig): ResolvedConfig {
  const { runTests: _tests, ...sections } = config.sections ?? {};
  const cc = contextCheckpointConfigOf(config);
  return { ...config, sections: { ...sections, context: { ...cc, context: { ...cc.context, enabled: false } } } };
}

/** Input of {@link writeManualCheckpoint}. */
export interface ManualCheckpointInput {
  readonly agent: AgentId;
  readonly sessionId?: string;
  /** The session's turn so far, read with core's pipeline (`configForTurnSoFar`); git only when no session was found. */
  readonly outcome: Pick<CheckpointOutcome, 'timeline' | 'git' | 'result'>;
  /** The project root (or the cwd outside a repository) when git gave none. */
  readonly cwd: string;
  readonly config: ResolvedConfig;
  /** The session's context reading, when known. */
  readonly reading?: KnownContextReading;
  /** The user's reason (`checkpoint --reason`). */
  readonly reason?: string;
  readonly stateDir: string;
  readonly now: Date;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
}

/**
 * The user's `checkpoint` (seed 004 `/checkpoint`, RLP-008): the same checkpoint every route writes
 * (`writeCheckpointHandoff`), with the turn's content in the handoff (what was done, failing
 * commands, next steps and decisions), the WIP commit and memory-file update when
 * `directExecution.enabled` (the same git write profile), the tracker comment and claude-mem
 * observation when they are on (told as at L2, at L3 when the reading is L3: a checkpoint whatever
 * the level), and the one record (loop state and signal, metrics as `trigger: user`, the session's
 * slot). Never throws.
 */
export async function writeManualCheckpoint(input: ManualCheckpointInput): Promise<CheckpointHandoffOutcome> {
  const cc = contextCheckpointConfigOf(input.config);
  const { outcome } = input;
  const projectRoot = outcome.git?.kind === 'repo' ? outcome.git.root : input.cwd;
  return writeCheckpointHandoff({
    route: 'manual',
    agent: input.agent,
    projectRoot,
    content: {
      ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
      trigger: { kind: 'manual', reason: input.reason ?? 'user request', ...(input.reading !== undefined ? { reading: input.reading } : {}) },
      ...(outcome.timeline ? { timeline: outcome.timeline } : {}),
      failures: failuresFromObservations(outcome.result?.observations ?? [], outcome.timeline),
      ...(cc.handoff.planFile !== undefined ? { planFile: cc.handoff.planFile } : {}),
    },
    ...(outcome.git ? { git: outcome.git } : {}),
    handoffDir: cc.handoff.dir,
    ...(cc.directExecution.enabled ? { direct: cc.directExecution } : {}),
    services: handoffServicesOf(input.config),
    level: input.reading?.level === 'L3' ? 'L3' : 'L2',
    ...(input.reading !== undefined ? { percent: input.reading.displayPercent } : {}),
    ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    stateDir: input.stateDir,
    now: input.now,
    env: input.env,
    ...(input.signal ? { signal: input.signal } : {}),
  });
}
