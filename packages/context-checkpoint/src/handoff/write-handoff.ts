import { realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ensureDirSafelySync, latestTaskList, readChangedLineRanges, underRoot } from '@agent-checkpoint/core';
import { DEFAULT_HANDOFF_DIR } from '../config/context-config.ts';
import { AGENT_CHECKPOINT_DIR, ensureAgentCheckpointDir } from './agent-checkpoint-dir.ts';
import { recordWrittenHandoff } from './handoff-provenance.ts';
import { findMemoryFiles } from './memory-files.ts';
import { renderHandoff } from './render-handoff.ts';
import { readPlanInScope } from '../steps/plan-in-scope.ts';
import { readMemorySections, readPlanOpenItems } from './session-carry.ts';
import type { FileInProgress, HandoffData, WorkProgress } from './handoff-types.ts';
import { deriveDecisions, deriveNextSteps, filesInProgressOf, progressFromPlan, progressFromTaskList } from './turn-carry.ts';
import { writeUniqueFile } from './write-new-file.ts';

/** Options of {@link writeHandoff}. */
export interface WriteHandoffOptions {
  /** Repository root (or project directory): the handoff directory is relative to it. */
  readonly projectRoot: string;
  readonly data: HandoffData;
  readonly now: Date;
  /** IANA zone of the date, time and file name (default: local). */
  readonly timeZone?: string;
  /** Repo-relative handoff directory (default `.agent-checkpoint/handoffs`, i.e. `handoff.dir`). */
  readonly dir?: string;
  /**
   * The user's private state directory: the handoff's path and digest are recorded there, and only a
   * recorded handoff is ever resumed (`handoff-provenance.ts`). Without it the handoff is written but
   * never resumed.
   */
  readonly stateDir?: string;
}

/** A handoff on disk. */
export interface WrittenHandoff {
  readonly path: string;
  /** POSIX path relative to the project root, as shown to agents. */
  readonly relativePath: string;
  /** File name without `.md` (`2026-01-07-1145`, or `2026-01-07-1145-2` after a collision). */
  readonly name: string;
  readonly markdown: string;
  /** Set when the handoff could not be recorded in the state directory (it will not be resumed). */
  readonly unrecorded?: string;
  /** Where the work stands, as the handoff says it (the loop state keeps it: seed 004 RLP-001). */
  readonly work?: HandoffWork;
}

/** The files in progress (with their line ranges) and the current item with its progress. */
export interface HandoffWork {
  readonly filesInProgress: readonly FileInProgress[];
  readonly progress?: WorkProgress;
}

export type WriteHandoffResult = { readonly ok: true; readonly handoff: WrittenHandoff } | { readonly ok: false; readonly error: string };

/**
 * Render and write `<dir>/YYYY-MM-DD-HHMM.md`. Never overwrites: a taken name gets `-2`, `-3`…
 * Each file is written atomically (temp file + link). The directory is created; when it lies inside
 * `.agent-checkpoint/`, that directory is made git-ignored first (see `ensureAgentCheckpointDir`).
 * Memory files are looked up on disk when `data.memoryFiles` is undefined. The one writer of handoffs:
 * each is recorded (path, digest) in `stateDir`, which is what makes it resumable.
 *
 * Never throws: I/O failures come back as `{ ok: false, error }` for the caller to report.
 */
export async function writeHandoff(options: WriteHandoffOptions): Promise<WriteHandoffResult> {
  const dirRel = options.dir ?? DEFAULT_HANDOFF_DIR;
  const dir = join(options.projectRoot, dirRel);
  try {
    if (dirRel === AGENT_CHECKPOINT_DIR || dirRel.startsWith(`${AGENT_CHECKPOINT_DIR}/`)) await ensureAgentCheckpointDir(options.projectRoot);
    // No symlink on the way, nothing outside the project (see fs-safe); the file itself is created
    // exclusively (temp + link), so a planted name is never written through either.
    const target = underRoot(options.projectRoot, dirRel);
    const realDir = ensureDirSafelySync(target.root, target.relPath, { dirMode: 0o755 });
    const data = await withSessionCarry(
      options.projectRoot,
      options.data.memoryFiles === undefined ? { ...options.data, memoryFiles: await findMemoryFiles(options.projectRoot, options.data.agent) } : options.data,
    );
    const rendered = renderHandoff(data, { now: options.now, ...(options.timeZone !== undefined ? { timeZone: options.timeZone } : {}) });
    const path = await writeUniqueFile(realDir, rendered.stem, '.md', rendered.markdown);
    const relativePath = relative(await realpath(options.projectRoot), path).split(sep).join('/');
    const name = relativePath.slice(relativePath.lastIndexOf('/') + 1).replace(/\.md$/, '');
    let unrecorded: string | undefined;
    if (options.stateDir === undefined) unrecorded = 'no state directory: this handoff will not be resumed';
    else {
      try {
        recordWrittenHandoff(options.stateDir, path, rendered.markdown, options.now);
      } catch (error) {
        unrecorded = `cannot record it in ${options.stateDir}: ${(error as Error)?.message ?? String(error)}; it will not be resumed`;
      }
    }
    const work: HandoffWork = { filesInProgress: data.filesInProgress ?? [], ...(data.progress !== undefined ? { progress: data.progress } : {}) };
    return { ok: true, handoff: { path, relativePath, name, markdown: rendered.markdown, ...(unrecorded !== undefined ? { unrecorded } : {}), work } };
  } catch (error) {
    return { ok: false, error: `handoff: cannot write in ${dir}: ${(error as Error)?.message ?? String(error)}` };
  }
}

/** Time limit of the `git diff` that finds the changed line ranges. */
const LINE_RANGES_TIMEOUT_MS = 3000;

/**
 * Fill what the handoff carries of the session when not given: plan items, memory sections, and what
 * the turn shows (`turn-carry.ts`): next steps and decisions derived from it, the files in progress
 * with their line ranges, the current item and progress.
 */
async function withSessionCarry(root: string, data: HandoffData): Promise<HandoffData> {
  const planItems = data.planItems ?? (data.planFile !== undefined ? await readPlanOpenItems(root, data.planFile) : undefined);
  const decisions = data.decisions ?? deriveDecisions({ ...(data.timeline ? { timeline: data.timeline } : {}), ...(data.git ? { git: data.git } : {}) });
  const nextSteps = data.nextSteps ?? deriveNextSteps({ ...(data.timeline ? { timeline: data.timeline } : {}), ...(data.failures ? { failures: data.failures } : {}) });
  const memorySections = data.memorySections ?? (await readMemorySections(root, data.memoryFiles ?? []));
  const filesInProgress =
    data.filesInProgress ?? (data.git?.kind === 'repo' ? filesInProgressOf(data.git, await readChangedLineRanges(data.git.root, { timeoutMs: LINE_RANGES_TIMEOUT_MS })) : undefined);
  const progress = data.progress ?? progressOf(root, data);
  return {
    ...data,
    ...(planItems !== undefined ? { planItems } : {}),
    decisions,
    nextSteps,
    memorySections,
    ...(filesInProgress !== undefined ? { filesInProgress } : {}),
    ...(progress !== undefined ? { progress } : {}),
  };
}

/** The plan in scope's progress (its current shard once sharded), else the agent's task list's. */
function progressOf(root: string, data: HandoffData): WorkProgress | undefined {
  const scope = data.planFile !== undefined ? readPlanInScope(root, data.planFile, []) : undefined;
  const fromPlan = scope !== undefined ? progressFromPlan(scope.text, scope.shardFile ?? scope.planFile) : undefined;
  return fromPlan ?? progressFromTaskList(latestTaskList(data.timeline?.calls ?? []));
}
