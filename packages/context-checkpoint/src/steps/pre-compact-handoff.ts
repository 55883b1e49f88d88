import { updateSessionState, type AgentId, type CheckpointOutcome } from '@agent-checkpoint/core';
import type { ContextCheckpointConfig } from '../config/context-config.ts';
import { readContextLevel } from '../context/read-context-level.ts';
import { executeCheckpoint } from '../direct/execute-checkpoint.ts';
import { failuresFromObservations } from '../handoff/failures-from-observations.ts';
import type { HandoffTrigger } from '../handoff/handoff-types.ts';
import { writeHandoff } from '../handoff/write-handoff.ts';
import { sessionContextOf, withSessionContext } from '../state/session-slots.ts';

/** Input of {@link writePreCompactHandoff}: the turn so far, as core's pipeline read it. */
export interface PreCompactHandoffInput {
  readonly agent: AgentId;
  readonly sessionId: string | undefined;
  /** `getCheckpoint`'s outcome for the turn so far (no extensions: this is not a turn end). */
  readonly outcome: Pick<CheckpointOutcome, 'timeline' | 'git' | 'result'>;
  /** The session's cwd: handoffs go to the repository root, or here outside a repository. */
  readonly cwd: string;
  readonly config: ContextCheckpointConfig;
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
 * the session state (best effort). The caller checked `handoff.enabled`. Never throws.
 */
export async function writePreCompactHandoff(input: PreCompactHandoffInput): Promise<PreCompactHandoffResult> {
  const { outcome, config: cc } = input;
  const warnings: string[] = [];
  const reading = readContextLevel(outcome.timeline?.tokenUsage, { windowTokens: cc.context.windowTokens, thresholds: cc.context.thresholds });
  const trigger: HandoffTrigger = {
    kind: 'pre-compact',
    auto: input.auto,
    ...(reading !== undefined && reading.windowSource !== 'unknown' ? { reading } : {}),
  };
  const projectRoot = outcome.git?.kind === 'repo' ? outcome.git.root : input.cwd;
  const content = {
    ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    trigger,
    ...(outcome.timeline ? { timeline: outcome.timeline } : {}),
    failures: failuresFromObservations(outcome.result?.observations ?? [], outcome.timeline),
    ...(cc.handoff.planFile !== undefined ? { planFile: cc.handoff.planFile } : {}),
  };
  let written: string | undefined;
  let detail: string;
  if (cc.directExecution.enabled) {
    const result = await executeCheckpoint({
      projectRoot,
      agent: input.agent,
      handoff: content,
      config: cc.directExecution,
      handoffDir: cc.handoff.dir,
      now: input.now,
      env: input.env,
      signal: input.signal,
    });
    written = result.handoff?.relativePath;
    detail = `direct execution: ${result.status}${result.fallbackReason ? ` (${result.fallbackReason})` : ''}`;
    if (result.status === 'fallback') warnings.push(`pre-compact: ${detail}`);
  } else {
    const result = await writeHandoff({
      projectRoot,
      data: { ...content, agent: input.agent, projectRoot, ...(outcome.git ? { git: outcome.git } : {}) },
      now: input.now,
      dir: cc.handoff.dir,
    });
    if (!result.ok) return { code: 'write-failed', detail: result.error, warnings: [...warnings, `pre-compact: ${result.error}`] };
    written = result.handoff.relativePath;
    detail = `wrote ${written}`;
  }
  if (written !== undefined && input.sessionId !== undefined) warnings.push(...(await rememberHandoff(input, input.sessionId, written)));
  return { code: written !== undefined ? 'written' : 'not-written', detail, ...(written !== undefined ? { written } : {}), warnings };
}

/** Record the handoff in the session's state (status lines show it). Best effort: problems are warnings. */
async function rememberHandoff(input: PreCompactHandoffInput, sessionId: string, path: string): Promise<string[]> {
  const at = input.now.toISOString();
  try {
    const result = await updateSessionState(
      { stateDir: input.stateDir, agent: input.agent, sessionId },
      (state) => ({ state: { ...withSessionContext(state, { ...sessionContextOf(state), handoffPath: path, handoffAt: at }), updatedAt: at }, value: undefined }),
      { lockWaitMs: 1000 },
    );
    return [...result.diagnostics];
  } catch (error) {
    return [`pre-compact: cannot record the handoff in the session state: ${error instanceof Error ? error.message : String(error)}`];
  }
}
