import type { AgentId, GitSnapshot } from '@agent-checkpoint/core';
import { handoffServicesOf, type HandoffServiceSettings, type ResolvedDirectExecutionConfig } from '../config/context-config.ts';
import { executeCheckpoint, type CheckpointHandoffInput, type ExecuteCheckpointResult } from '../direct/execute-checkpoint.ts';
import { writeHandoff, type WrittenHandoff } from '../handoff/write-handoff.ts';
import { currentLoopIteration } from '../loop/loop-steps.ts';
import type { TrackerSettings } from '../tracker/tracker-settings.ts';
import { saveMemoryAfterHandoff } from './memory-step.ts';
import { recordCheckpoint, type CheckpointRoute } from './record-checkpoint.ts';
import { prepareTrackerIssue, syncTrackerAfterHandoff } from './tracker-step.ts';

export { handoffServicesOf, type HandoffServiceSettings };

/** Both services off: what a caller without a full configuration passes. */
export const NO_HANDOFF_SERVICES: HandoffServiceSettings = handoffServicesOf({});

/** One handoff checkpoint, as every route (Stop, PreCompact, the monitor, the manual `checkpoint`) asks for it. */
export interface CheckpointHandoffRequest {
  /** Which route asks: recorded with the checkpoint (loop state, metrics, status line), whichever it is. */
  readonly route: CheckpointRoute;
  readonly agent: AgentId;
  /** Repository root (or the cwd outside a repository). */
  readonly projectRoot: string;
  /** The document's content; the tracker issue is added here. */
  readonly content: Omit<CheckpointHandoffInput, 'trackerIssue'>;
  /** The snapshot the handoff shows (not used by direct execution, which takes a fresh one). */
  readonly git?: GitSnapshot;
  /** Repo-relative handoff directory (`handoff.dir`). */
  readonly handoffDir: string;
  /** Present: run the direct checkpoint (handoff, memory file, WIP commit) instead of writing the handoff only. */
  readonly direct?: ResolvedDirectExecutionConfig;
  readonly services: HandoffServiceSettings;
  /**
   * The level the tracker and claude-mem are told (L2: comment; L3: comment, state, label).
   * Undefined (an L1 handoff): neither is told; the handoff still names the tracker's issue.
   */
  readonly level?: 'L2' | 'L3';
  readonly percent?: number;
  readonly sessionId?: string;
  /** The hook's private state directory: the tracker outbox, the once-only records and the record of the handoff (only recorded handoffs are resumed). */
  readonly stateDir?: string;
  readonly now: Date;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Bounds the services' requests (and git in direct execution): the hook's deadline. */
  readonly signal?: AbortSignal;
  /** The hook's deadline (`Date.now()` clock): direct execution's push retries stop before it. */
  readonly deadlineAt?: number;
}

/** What {@link writeCheckpointHandoff} did; `diagnostics` are stderr lines (the services' included). */
export type CheckpointHandoffOutcome = (
  | { readonly kind: 'executed'; readonly result: ExecuteCheckpointResult }
  | { readonly kind: 'written'; readonly handoff: WrittenHandoff }
  | { readonly kind: 'failed'; readonly error: string }
) & { readonly diagnostics: readonly string[] };

/**
 * Write a handoff checkpoint and tell the services, the one implementation behind the Stop route's
 * context step, the PreCompact handoff and the monitor's L2/L3 handoff:
 * 1. the tracker's issue (LIN, HND-003): the branch's id and, within the lookup's short budget, the
 *    issue, so the handoff carries `linear_issues` and a "Linear Issue" section;
 * 2. the handoff (or, with `direct`, the direct checkpoint: handoff, memory file, WIP commit);
 * 3. with a handoff written: the one record of checkpoints (`recordCheckpoint`: the loop state and
 *    its end-this-iteration signal, the metrics event, the session's slot the status line reads);
 * 4. with a handoff written and a `level`: the tracker sync (comment; state and label at L3, through
 *    the outbox) and the claude-mem observation (MEM-001/002), side by side, each once per
 *    (session, level, handoff).
 * Both services are off by default and loaded only when on. Never throws; a service's problem is a
 * diagnostic and never costs the handoff.
 */
export async function writeCheckpointHandoff(request: CheckpointHandoffRequest): Promise<CheckpointHandoffOutcome> {
  const diagnostics: string[] = [];
  const { services } = request;
  const where = { projectRoot: request.projectRoot, env: request.env, ...(request.signal ? { signal: request.signal } : {}) };
  // The issue goes into any handoff while the tracker is on (an L1 handoff too: `handoff.atLevel`); only L2/L3 are synced.
  const tracked = await prepareTrackerIssue(services.tracker, where, diagnostics);
  const anyService = request.level !== undefined && (services.tracker.enabled || services.memory.enabled);
  const iteration = request.direct !== undefined || anyService ? await currentLoopIteration(request.projectRoot) : undefined;
  const content: CheckpointHandoffInput = {
    ...request.content,
    ...(tracked !== undefined ? { trackerIssue: { id: tracked.issueId, ...(tracked.issue ? { issue: tracked.issue } : {}) } } : {}),
  };

  let outcome: CheckpointHandoffOutcome;
  let path: string | undefined;
  let work: WrittenHandoff['work'];
  let head = request.git?.kind === 'repo' ? request.git.head : undefined;
  if (request.direct !== undefined) {
    // The WIP commit names the branch's issue (seed 004: "[WIP] ANV-123 - checkpoint"), tracker on or off.
    const branch = request.git?.kind === 'repo' ? request.git.branch : undefined;
    const issueId = tracked?.issueId ?? (branch !== undefined && request.direct.commitMessage.includes('{issue}') ? await issueIdOfBranch(branch, services.tracker) : undefined);
    const result = await executeCheckpoint({
      ...(iteration !== undefined ? { loopIteration: iteration } : {}),
      ...(issueId !== undefined ? { issueId } : {}),
      projectRoot: request.projectRoot,
      agent: request.agent,
      handoff: content,
      config: request.direct,
      handoffDir: request.handoffDir,
      ...(request.stateDir !== undefined ? { stateDir: request.stateDir } : {}),
      now: request.now,
      env: request.env,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.deadlineAt !== undefined ? { deadlineAt: request.deadlineAt } : {}),
    });
    path = result.handoff?.relativePath;
    work = result.handoff?.work;
    if (result.commit !== undefined) head = result.commit.sha;
    outcome = { kind: 'executed', result, diagnostics };
  } else {
    const written = await writeHandoff({
      projectRoot: request.projectRoot,
      data: { ...content, agent: request.agent, projectRoot: request.projectRoot, ...(request.git ? { git: request.git } : {}) },
      now: request.now,
      dir: request.handoffDir,
      ...(request.stateDir !== undefined ? { stateDir: request.stateDir } : {}),
    });
    if (!written.ok) return { kind: 'failed', error: written.error, diagnostics };
    path = written.handoff.relativePath;
    work = written.handoff.work;
    outcome = { kind: 'written', handoff: written.handoff, diagnostics };
  }

  if (path !== undefined) {
    const trigger = request.content.trigger;
    const readingLevel = trigger.kind === 'context' ? trigger.reading.level : trigger.reading?.level;
    // PreCompact and the manual checkpoint tell the services "L2" even below it; their record keeps the reading's own level.
    const level = request.route === 'pre-compact' || request.route === 'manual' ? (readingLevel ?? 'L0') : (request.level ?? readingLevel ?? 'L0');
    diagnostics.push(
      ...(await recordCheckpoint({
        route: request.route,
        agent: request.agent,
        projectRoot: request.projectRoot,
        level,
        ...(request.percent !== undefined ? { percent: request.percent } : {}),
        handoffPath: path,
        ...(work !== undefined ? { work } : {}),
        ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
        ...(request.stateDir !== undefined ? { stateDir: request.stateDir } : {}),
        now: request.now,
      })),
    );
  }

  if (path !== undefined && request.level !== undefined && anyService) {
    const branch = request.git?.kind === 'repo' ? request.git.branch : undefined;
    const checkpoint = {
      level: request.level,
      ...(request.percent !== undefined ? { percent: request.percent } : {}),
      handoffPath: path,
      ...(branch !== undefined ? { branch } : {}),
      ...(iteration !== undefined ? { iteration } : {}),
    };
    const once = { ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}), now: request.now };
    const issueId = tracked?.issueId ?? (services.memory.enabled ? await branchIssueId(services.tracker, where) : undefined);
    await Promise.all([
      syncTrackerAfterHandoff(tracked, { ...checkpoint, ...(head !== undefined ? { head } : {}) }, request.stateDir, diagnostics, once),
      saveMemoryAfterHandoff(services.memory, { ...checkpoint, ...(issueId !== undefined ? { issueId } : {}) }, { ...where, ...once, stateDir: request.stateDir }, diagnostics),
    ]);
  }
  return outcome;
}

/** The issue id in a branch name already read (the tracker's pattern, default `ANV-123`). */
async function issueIdOfBranch(branch: string, settings: TrackerSettings): Promise<string | undefined> {
  try {
    const { issueIdFromBranch } = await import('../tracker/issue-id-from-branch.ts');
    return issueIdFromBranch(branch, settings.issuePattern);
  } catch {
    return undefined;
  }
}

/** The branch's issue id for claude-mem's title when the tracker is off (its pattern, default `ANV-123`). */
async function branchIssueId(settings: TrackerSettings, where: { readonly projectRoot: string; readonly signal?: AbortSignal }): Promise<string | undefined> {
  try {
    const { readBranchIssueId } = await import('../tracker/issue-id-from-branch.ts');
    return await readBranchIssueId({ cwd: where.projectRoot, pattern: settings.issuePattern, ...(where.signal ? { signal: where.signal } : {}) });
  } catch {
    return undefined;
  }
}
