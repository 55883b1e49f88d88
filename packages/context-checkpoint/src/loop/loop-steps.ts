import { type ContextLevel, escapeControls, formatLineRanges } from '@agent-checkpoint/core';
import { MAX_ITEM_CHARS } from '../estimate/parse-plan-items.ts';
import { progressLabel } from '../handoff/turn-carry.ts';
import type { HandoffWork } from '../handoff/write-handoff.ts';
import type { LoopNextItem } from './loop-next-item.ts';
import { settleEndedIteration } from '../steps/resume-outcome.ts';
import { clearLoopEndSignal, type LoopState, MAX_LOOP_FILES, newLoopState, readLoopState, withIterationContext, writeLoopEndSignal, writeLoopState } from './loop-state.ts';

/** What a route saw in a loop iteration: the Stop route's turn end, or any route's checkpoint (`recordCheckpoint`). */
export interface LoopTurnInput {
  readonly projectRoot: string;
  /** The reading's display percent; unknown (a compaction without a reading): only the handoff is recorded. */
  readonly percent?: number;
  readonly level: ContextLevel;
  /** The handoff written at this turn end (repo-relative), if any. */
  readonly handoffPath?: string;
  /** Where the work stands, as that handoff says it (kept in `context_checkpoint`, seed RLP-001). */
  readonly work?: HandoffWork;
  readonly now: Date;
}

/**
 * Record a turn end in the loop state, when a loop is running (the file exists): the iteration's peak
 * context (RLP-005), and a handoff written now as the loop's pending checkpoint plus the
 * end-this-iteration signal file (RLP-003). No loop: nothing is written. Returns diagnostics; never
 * throws.
 */
export async function recordLoopTurn(input: LoopTurnInput): Promise<readonly string[]> {
  try {
    const read = await readLoopState(input.projectRoot);
    if (read.kind === 'none') return [];
    if (read.kind === 'invalid') return [`loop: ${read.detail}; the loop state is left alone`];
    let state = withIterationContext(read.state, input.percent ?? 0, input.handoffPath !== undefined);
    if (input.handoffPath !== undefined) {
      state = {
        ...state,
        context_checkpoint: {
          active: true,
          level: input.level,
          ...(input.percent !== undefined ? { percent_at_checkpoint: input.percent } : {}),
          timestamp: input.now.toISOString(),
          handoff_file: input.handoffPath,
          handoff_iteration: state.iteration,
          handoff_consumed: false,
          ...loopWorkOf(input.work),
        },
      };
    }
    await writeLoopState(input.projectRoot, state);
    if (input.handoffPath !== undefined) await writeLoopEndSignal(input.projectRoot, input.handoffPath);
    return [];
  } catch (error) {
    return [`loop: cannot record the turn (${error instanceof Error ? error.message : String(error)})`];
  }
}

/** The handoff's work in the loop state's words (bounded: at most {@link MAX_LOOP_FILES} files, texts cut). */
function loopWorkOf(work: HandoffWork | undefined): Pick<LoopState['context_checkpoint'], 'files_in_progress' | 'current_todo_item' | 'progress'> {
  if (work === undefined) return {};
  const files = work.filesInProgress.slice(0, MAX_LOOP_FILES).map((f) => {
    const lines = f.ranges !== undefined && f.ranges.length > 0 ? formatLineRanges(f.ranges) : undefined;
    return { path: f.path, ...(lines !== undefined ? { lines } : {}) };
  });
  // Control characters never reach the file (a reader validates them away).
  const text = (raw: string): string => escapeControls(raw, { keepLines: false }).slice(0, MAX_ITEM_CHARS);
  const progress = work.progress;
  return {
    ...(files.length > 0 ? { files_in_progress: files } : {}),
    ...(progress?.current !== undefined ? { current_todo_item: text(progress.current) } : {}),
    ...(progress !== undefined ? { progress: progressLabel(progress) } : {}),
  };
}

/** The iteration number of a running loop, for the WIP commit message; undefined without a loop. */
export async function currentLoopIteration(projectRoot: string): Promise<number | undefined> {
  const read = await readLoopState(projectRoot);
  return read.kind === 'ok' && read.state.iteration > 0 ? read.state.iteration : undefined;
}

/** `loop start`: a fresh loop state (an existing one is replaced) and no pending signal. */
export async function startLoop(projectRoot: string, now: Date): Promise<LoopState> {
  const state = newLoopState(now);
  await writeLoopState(projectRoot, state);
  await clearLoopEndSignal(projectRoot);
  return state;
}

/** What `loop next` did. */
export interface NextIteration {
  readonly state: LoopState;
  /** The previous iteration ended with a handoff not yet consumed: the next prompt should resume it. */
  readonly resume: boolean;
  /** Whether the end-this-iteration signal file was there (and is now removed). */
  readonly signalled: boolean;
}

/**
 * `loop next`: start the next iteration (a loop state is created when missing), clear the
 * end-this-iteration signal, and say whether a handoff is waiting to be resumed. `nextItem`
 * (`estimateLoopNextItem`) replaces the state's `next_item` (none: removed). With `stateDir`, an
 * iteration that was given a handoff and ends without a turn end that did work records that resume
 * as not continued (`settleEndedIteration`).
 */
export async function nextLoopIteration(
  projectRoot: string,
  now: Date,
  nextItem?: LoopNextItem,
  stateDir?: string,
): Promise<(NextIteration & { readonly notes: readonly string[] }) | { readonly error: string }> {
  const read = await readLoopState(projectRoot);
  if (read.kind === 'invalid') return { error: read.detail };
  const settled = read.kind === 'ok' ? await settleEndedIteration(projectRoot, read.state, stateDir, now) : { state: newLoopState(now), notes: [] };
  const previous = settled.state;
  const state = withNextItem({ ...previous, iteration: previous.iteration + 1 }, nextItem);
  await writeLoopState(projectRoot, state);
  const signalled = await clearLoopEndSignal(projectRoot);
  const cc = state.context_checkpoint;
  return { state, resume: cc.active && !cc.handoff_consumed && cc.handoff_file !== undefined, signalled, notes: settled.notes };
}

/**
 * Mark the loop's handoff consumed (`resume-prompt` gave it to an iteration). Returns the handoff path
 * the loop is waiting on (undefined: none or already consumed), or the diagnostic of a bad file.
 */
export async function pendingLoopHandoff(projectRoot: string): Promise<{ kind: 'no-loop' } | { kind: 'invalid'; detail: string } | { kind: 'loop'; pending?: string; state: LoopState }> {
  const read = await readLoopState(projectRoot);
  if (read.kind === 'none') return { kind: 'no-loop' };
  if (read.kind === 'invalid') return { kind: 'invalid', detail: read.detail };
  const cc = read.state.context_checkpoint;
  return { kind: 'loop', state: read.state, ...(cc.handoff_file !== undefined && !cc.handoff_consumed ? { pending: cc.handoff_file } : {}) };
}

/** The state with `item` as its next item; without one, the previous iteration's item is dropped. */
function withNextItem(state: LoopState, item: LoopNextItem | undefined): LoopState {
  const copy: { -readonly [K in keyof LoopState]: LoopState[K] } = { ...state };
  delete copy.next_item;
  return item === undefined ? copy : { ...copy, next_item: item };
}
