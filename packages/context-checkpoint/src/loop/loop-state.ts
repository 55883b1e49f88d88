import { constants } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type ContextLevel, writeFileSafelySync } from '@agent-checkpoint/core';
import { MAX_ITEM_CHARS } from '../estimate/parse-plan-items.ts';
import { AGENT_CHECKPOINT_DIR, ensureAgentCheckpointDir } from '../handoff/agent-checkpoint-dir.ts';
import type { ResumeOutcome } from '../state/session-slots.ts';
import type { LoopNextItem } from './loop-next-item.ts';

/** The loop-state file, relative to the project root (git-ignored with the rest of the directory). */
export const LOOP_STATE_FILE = `${AGENT_CHECKPOINT_DIR}/loop-state.json`;
/**
 * The end-this-iteration signal: written when any route (Stop, monitor, PreCompact, manual:
 * `recordCheckpoint`) wrote a handoff during a loop iteration (its content is the handoff's repo-relative path), removed by `loop next`. A runner that
 * drives an interactive CLI can watch for it; a headless runner reads `loop next`'s exit status.
 */
export const LOOP_END_FILE = `${AGENT_CHECKPOINT_DIR}/loop-end-iteration`;

/** The longest history kept (oldest entries dropped): a night of iterations, bounded file size. */
export const MAX_LOOP_HISTORY = 200;
/** Larger files are not loop state (a planted file must not cost a hook a large read). */
const MAX_LOOP_STATE_BYTES = 256 * 1024;

/** One iteration's context, as the Stop route saw it (seed 004 `context_history`, RLP-005). */
export interface LoopHistoryEntry {
  readonly iteration: number;
  /** Highest context percentage a turn end of this iteration saw. */
  readonly peak_percent: number;
  /** Whether a handoff was written in this iteration. */
  readonly checkpoint: boolean;
}

/**
 * The loop runner's state (seed 004 "Ralph State Enhancement", RLP-001), in
 * `<project>/.agent-checkpoint/loop-state.json`. Its presence is what makes the hooks loop-aware:
 * `loop start` creates it, `loop next` advances `iteration`, the Stop route records the context, every
 * route's handoff is recorded by `recordCheckpoint`, `resume-prompt` marks the handoff consumed.
 *
 * Snake case on purpose: it is the seed's file format, read by shell scripts (`jq`).
 */
export interface LoopState {
  readonly version: 1;
  /** The iteration running now (1 after the first `loop next`; 0 before any). */
  readonly iteration: number;
  readonly started_at: string;
  readonly context_checkpoint: {
    /** True from a handoff until `resume-prompt` consumed it. */
    readonly active: boolean;
    readonly level?: ContextLevel;
    readonly percent_at_checkpoint?: number;
    readonly timestamp?: string;
    /** The last handoff written during the loop (repo-relative). */
    readonly handoff_file?: string;
    /** The iteration whose turn wrote it. */
    readonly handoff_iteration?: number;
    /** Whether a later iteration was given it (`resume-prompt`); it is never resumed twice. */
    readonly handoff_consumed: boolean;
    /** The handoff's files in progress with the lines being worked on (seed RLP-001 `files_in_progress`). */
    readonly files_in_progress?: readonly LoopFileInProgress[];
    /** The current item (seed `current_todo_item`): the plan's first open item, else the agent's task in progress. */
    readonly current_todo_item?: string;
    /** Items done of all (`3 of 7 done`); the seed's `progress_on_item` (a percentage of the item) is not measurable. */
    readonly progress?: string;
  };
  /** One entry per iteration that reached a turn end with a known context level. */
  readonly context_history: readonly LoopHistoryEntry[];
  /**
   * The last handoff an iteration was given (`resume-prompt`) and what became of it, once known
   * (recorded once in the metrics: `steps/resume-outcome.ts`). Kept apart from `context_checkpoint`,
   * which the next handoff replaces.
   */
  readonly last_resume?: LoopResume;
  /** The plan's next item and its own estimate, as `loop next` found it (RLP-006); absent without a plan. */
  readonly next_item?: LoopNextItem;
}

/** One file in progress in the loop state: its path and, when git gave them, its changed lines (`45-120`). */
export interface LoopFileInProgress {
  readonly path: string;
  readonly lines?: string;
}

/** Most files in progress kept in the loop state. */
export const MAX_LOOP_FILES = 20;

/** A loop resume: the handoff, the iteration given it, and its outcome once settled. */
export interface LoopResume {
  /** Repo-relative path of the handoff resumed. */
  readonly handoff_file: string;
  readonly iteration: number;
  readonly outcome?: ResumeOutcome;
}

/** What reading the loop state found. */
export type LoopStateRead =
  | { readonly kind: 'none' }
  | { readonly kind: 'ok'; readonly state: LoopState }
  | { readonly kind: 'invalid'; readonly detail: string };

/** A fresh loop state (iteration 0: the first `loop next` starts iteration 1). */
export function newLoopState(now: Date): LoopState {
  return { version: 1, iteration: 0, started_at: now.toISOString(), context_checkpoint: { active: false, handoff_consumed: false }, context_history: [] };
}

const LEVELS: ReadonlySet<string> = new Set(['L0', 'L1', 'L2', 'L3']);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isPercent = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1000;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A repo-relative path we wrote: no absolute path, no `..`, no control characters. */
const isRelPath = (v: unknown): v is string =>
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  typeof v === 'string' && v.length > 0 && v.length <= 1024 && !v.startsWith('/') && !v.split('/').includes('..') && !/[\u0000-\u001f\u007f]/.test(v);

/**
 * Validate untrusted JSON (the file lives in the working tree: the agent can write it). Hand-written,
 * not zod: the Stop route reads it and the package's entry stays free of zod.
 */
export function parseLoopState(value: unknown): { ok: true; state: LoopState } | { ok: false; detail: string } {
  if (!isRecord(value)) return { ok: false, detail: 'not a JSON object' };
  if (value['version'] !== 1) return { ok: false, detail: 'version is not 1' };
  if (!isCount(value['iteration'])) return { ok: false, detail: 'iteration is not a non-negative integer' };
  if (typeof value['started_at'] !== 'string' || Number.isNaN(Date.parse(value['started_at']))) return { ok: false, detail: 'started_at is not a date' };
  const cc = value['context_checkpoint'];
  if (!isRecord(cc)) return { ok: false, detail: 'context_checkpoint is not an object' };
  if (typeof cc['active'] !== 'boolean' || typeof cc['handoff_consumed'] !== 'boolean') return { ok: false, detail: 'context_checkpoint.active / handoff_consumed are not booleans' };
  if (cc['level'] !== undefined && !(typeof cc['level'] === 'string' && LEVELS.has(cc['level']))) return { ok: false, detail: 'context_checkpoint.level is not L0..L3' };
  if (cc['percent_at_checkpoint'] !== undefined && !isPercent(cc['percent_at_checkpoint'])) return { ok: false, detail: 'context_checkpoint.percent_at_checkpoint is not a percentage' };
  if (cc['timestamp'] !== undefined && (typeof cc['timestamp'] !== 'string' || Number.isNaN(Date.parse(cc['timestamp'])))) return { ok: false, detail: 'context_checkpoint.timestamp is not a date' };
  if (cc['handoff_file'] !== undefined && !isRelPath(cc['handoff_file'])) return { ok: false, detail: 'context_checkpoint.handoff_file is not a repository-relative path' };
  if (cc['handoff_iteration'] !== undefined && !isCount(cc['handoff_iteration'])) return { ok: false, detail: 'context_checkpoint.handoff_iteration is not a count' };
  if (cc['files_in_progress'] !== undefined && !(Array.isArray(cc['files_in_progress']) && cc['files_in_progress'].length <= MAX_LOOP_FILES && cc['files_in_progress'].every(isLoopFile))) {
    return { ok: false, detail: `context_checkpoint.files_in_progress is not a list of at most ${MAX_LOOP_FILES} {path, lines?}` };
  }
  if (cc['current_todo_item'] !== undefined && !isShortText(cc['current_todo_item'])) return { ok: false, detail: 'context_checkpoint.current_todo_item is not a short text' };
  if (cc['progress'] !== undefined && !isShortText(cc['progress'])) return { ok: false, detail: 'context_checkpoint.progress is not a short text' };
  const history = value['context_history'];
  if (!Array.isArray(history) || history.length > MAX_LOOP_HISTORY) return { ok: false, detail: `context_history is not a list of at most ${MAX_LOOP_HISTORY}` };
  const entries: LoopHistoryEntry[] = [];
  for (const entry of history) {
    if (!isRecord(entry) || !isCount(entry['iteration']) || !isPercent(entry['peak_percent']) || typeof entry['checkpoint'] !== 'boolean') {
      return { ok: false, detail: 'a context_history entry is not {iteration, peak_percent, checkpoint}' };
    }
    entries.push({ iteration: entry['iteration'], peak_percent: entry['peak_percent'], checkpoint: entry['checkpoint'] });
  }
  const resume = value['last_resume'];
  if (resume !== undefined && !isLoopResume(resume)) return { ok: false, detail: 'last_resume is not {handoff_file, iteration, outcome?}' };
  const next = value['next_item'];
  if (next !== undefined && !isNextItem(next)) return { ok: false, detail: 'next_item is not {file, line, text, estimated_tokens, estimated_percent, band}' };
  const state: LoopState = {
    version: 1,
    iteration: value['iteration'],
    started_at: value['started_at'],
    context_checkpoint: {
      active: cc['active'],
      handoff_consumed: cc['handoff_consumed'],
      ...(cc['level'] !== undefined ? { level: cc['level'] as ContextLevel } : {}),
      ...(cc['percent_at_checkpoint'] !== undefined ? { percent_at_checkpoint: cc['percent_at_checkpoint'] as number } : {}),
      ...(cc['timestamp'] !== undefined ? { timestamp: cc['timestamp'] as string } : {}),
      ...(cc['handoff_file'] !== undefined ? { handoff_file: cc['handoff_file'] as string } : {}),
      ...(cc['handoff_iteration'] !== undefined ? { handoff_iteration: cc['handoff_iteration'] as number } : {}),
      ...(cc['files_in_progress'] !== undefined
        ? { files_in_progress: (cc['files_in_progress'] as LoopFileInProgress[]).map((f) => ({ path: f.path, ...(f.lines !== undefined ? { lines: f.lines } : {}) })) }
        : {}),
      ...(cc['current_todo_item'] !== undefined ? { current_todo_item: cc['current_todo_item'] as string } : {}),
      ...(cc['progress'] !== undefined ? { progress: cc['progress'] as string } : {}),
    },
    context_history: entries,
    ...(resume !== undefined ? { last_resume: { handoff_file: resume.handoff_file, iteration: resume.iteration, ...(resume.outcome !== undefined ? { outcome: resume.outcome } : {}) } } : {}),
    ...(next !== undefined ? { next_item: { file: next.file, line: next.line, text: next.text, estimated_tokens: next.estimated_tokens, estimated_percent: next.estimated_percent, band: next.band } } : {}),
  };
  return { ok: true, state };
}

/** Text from a handoff (the model wrote it): bounded, no control characters. */
function isShortText(v: unknown): v is string {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  return typeof v === 'string' && v.length <= MAX_ITEM_CHARS && !/[\u0000-\u001f\u007f]/.test(v);
}

function isLoopFile(v: unknown): v is LoopFileInProgress {
  return isRecord(v) && isRelPath(v['path']) && (v['lines'] === undefined || (typeof v['lines'] === 'string' && /^[0-9, -]{1,200}$/.test(v['lines'])));
}

function isLoopResume(v: unknown): v is LoopResume {
  return (
    isRecord(v) &&
    isRelPath(v['handoff_file']) &&
    isCount(v['iteration']) &&
    (v['outcome'] === undefined || v['outcome'] === 'continued' || v['outcome'] === 'not-continued')
  );
}

const BANDS: ReadonlySet<string> = new Set(['small', 'medium', 'large']);

function isNextItem(v: unknown): v is LoopNextItem {
  return (
    isRecord(v) &&
    isRelPath(v['file']) &&
    isCount(v['line']) &&
    typeof v['text'] === 'string' &&
    v['text'].length <= MAX_ITEM_CHARS &&
    isCount(v['estimated_tokens']) &&
    isPercent(v['estimated_percent']) &&
    typeof v['band'] === 'string' &&
    BANDS.has(v['band'])
  );
}

/**
 * Read `<root>/.agent-checkpoint/loop-state.json`. `none` when there is no loop (the file is missing);
 * `invalid` for anything else that is not a valid state (a symlink, a FIFO, too large, bad JSON):
 * callers say so on stderr and treat the loop as absent. Never throws.
 */
export async function readLoopState(root: string): Promise<LoopStateRead> {
  let handle;
  try {
    // O_NOFOLLOW: a symlink planted as the file is refused; O_NONBLOCK: a FIFO never blocks the hook.
    handle = await open(join(root, LOOP_STATE_FILE), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'none' };
    return { kind: 'invalid', detail: `${LOOP_STATE_FILE}: cannot open (${code ?? String(error)})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { kind: 'invalid', detail: `${LOOP_STATE_FILE} is not a regular file` };
    if (info.size > MAX_LOOP_STATE_BYTES) return { kind: 'invalid', detail: `${LOOP_STATE_FILE} is larger than ${MAX_LOOP_STATE_BYTES} bytes` };
    const text = await handle.readFile('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { kind: 'invalid', detail: `${LOOP_STATE_FILE} is not JSON` };
    }
    const parsed = parseLoopState(json);
    return parsed.ok ? { kind: 'ok', state: parsed.state } : { kind: 'invalid', detail: `${LOOP_STATE_FILE}: ${parsed.detail}` };
  } catch (error) {
    return { kind: 'invalid', detail: `${LOOP_STATE_FILE}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await handle.close();
  }
}

/**
 * Replace the loop state atomically (temp file + rename; never through a symlink). Throws on I/O
 * errors and `UnsafePathError` (a symlinked `.agent-checkpoint`).
 */
export async function writeLoopState(root: string, state: LoopState): Promise<void> {
  await ensureAgentCheckpointDir(root);
  const trimmed = state.context_history.length > MAX_LOOP_HISTORY ? { ...state, context_history: state.context_history.slice(-MAX_LOOP_HISTORY) } : state;
  writeFileSafelySync(root, LOOP_STATE_FILE, `${JSON.stringify(trimmed, null, 2)}\n`);
}

/** Write the end-this-iteration signal (content: the handoff path). */
export async function writeLoopEndSignal(root: string, handoffPath: string): Promise<void> {
  await ensureAgentCheckpointDir(root);
  writeFileSafelySync(root, LOOP_END_FILE, `${handoffPath}\n`);
}

/** Remove the end-this-iteration signal; true when there was one. */
export async function clearLoopEndSignal(root: string): Promise<boolean> {
  try {
    await unlink(join(root, LOOP_END_FILE));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The state with this iteration's peak context (and whether it checkpointed) folded into the history. */
export function withIterationContext(state: LoopState, percent: number, checkpoint: boolean): LoopState {
  const history = [...state.context_history];
  const last = history.at(-1);
  if (last !== undefined && last.iteration === state.iteration) {
    history[history.length - 1] = { iteration: last.iteration, peak_percent: Math.max(last.peak_percent, percent), checkpoint: last.checkpoint || checkpoint };
  } else {
    history.push({ iteration: state.iteration, peak_percent: percent, checkpoint });
  }
  return { ...state, context_history: history.slice(-MAX_LOOP_HISTORY) };
}
