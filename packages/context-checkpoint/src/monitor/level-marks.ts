// Synchronous on purpose: a few tiny files, read after every tool call by the monitor, where loading
// node:fs/promises (and a thread-pool round trip per call) costs more than the calls themselves.
import { lstatSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ensureDirSafelySync, privateEntryProblem, readSmallFileSync, toSafeSessionId, UnsafePathError, type AgentId } from '@agent-checkpoint/core/hot-path';
import { levelRank, type ContextLevel } from '../context/read-context-level.ts';
import type { MonitorLevel } from './monitor-action.ts';

/** The levels a route acts on, lowest first. */
const MARK_LEVELS = ['L1', 'L2', 'L3'] as const satisfies readonly MonitorLevel[];

/** Which route acted: the monitor after a tool call, or the turn-end (Stop) route's handoff. */
export type MarkRoute = 'monitor' | 'turn-end';

/**
 * One level acted on in a session (docs/context-checkpoints.md, "One record of the levels acted on"):
 *
 * - by the monitor: the level's alert reached the model (added context) and, at L2/L3, its handoff
 *   (or emergency checkpoint) was attempted;
 * - by the turn-end route: its handoff at that level was claimed (its *line* is recorded in the
 *   session state instead, when the block carrying it is granted).
 */
export interface LevelMark {
  readonly level: MonitorLevel;
  readonly by: MarkRoute;
  /**
   * The reading's level when the route acted. Below the level itself when the monitor acted early
   * (Principle 1, trajectory). The mark is forgotten once a reading falls below it. `L0` only for an
   * action taken below L1 (a large task's warning at 60 %), which then carries {@link atPercent}.
   */
  readonly base: ContextLevel;
  /**
   * The reading's percent when a route acted below L1 (base `L0`): the mark is forgotten once a reading
   * is {@link EARLY_REARM_POINTS} points below it (a compaction), since no level can fall below L0.
   */
  readonly atPercent?: number;
}

/**
 * How far below the percent of an early action (base `L0`) a reading must fall to forget it: well
 * beyond the drift of one session's readings, well within what a compaction takes away.
 */
export const EARLY_REARM_POINTS = 15;

/** A reading as the marks are lowered to it: its level, and its percent when known. */
export interface MarkReading {
  readonly level: ContextLevel;
  readonly percent?: number | undefined;
}

/**
 * The session's marks directory, `<stateDir>/monitor/<agent>-<safe session id>/` (core's
 * `toSafeSessionId`, as the session state files are named): one small file per level acted on. A
 * level is claimed by creating its file exclusively (`wx`), so two hooks of one session (parallel tool
 * calls, or the monitor and the turn end) never act twice on one level. Plain files rather than core's
 * session state: that needs core's zod schema, too heavy for a hook that runs after every tool call.
 * The id is not hashed unless it is unsafe as a file name: hashing loads node:crypto (about 2.5 ms)
 * after every tool call. (Before 2026-11-28 the key was a sha256 prefix: a session running across
 * that upgrade starts a new marks directory, so its current level is announced once more.)
 */
export function monitorMarksDir(stateDir: string, agent: AgentId, sessionId: string): string {
  return join(stateDir, 'monitor', `${agent}-${toSafeSessionId(sessionId)}`);
}

/**
 * The levels acted on, lowest first. A missing directory is none; unknown files are ignored; a mark
 * whose content is unreadable or from an older version (a bare timestamp) reads as the monitor's at
 * base L1, which is what those marks meant.
 *
 * @throws UnsafePathError when the directory (or `monitor/` above it) is a link or not private.
 */
export async function readMarks(dir: string): Promise<LevelMark[]> {
  if (!checkMarksDir(dir)) return [];
  let names: Set<string>;
  try {
    names = new Set(readdirSync(dir));
  } catch {
    return [];
  }
  return MARK_LEVELS.filter((level) => names.has(level)).map((level) => parseMark(level, readMarkText(join(dir, level))));
}

/** A claim: the level acted on, by which route, at which reading (its level becomes the mark's `base`). */
export interface MarkClaim {
  readonly level: MonitorLevel;
  readonly by: MarkRoute;
  readonly readingLevel: ContextLevel;
  /** The reading's percent: what keeps an early action (reading L0) from repeating at every call. */
  readonly readingPercent?: number | undefined;
}

/**
 * Claim `level` for `by`: true when this call created its mark (and so must act), false when another
 * hook (of either route) already holds it. Errors other than "exists" are thrown.
 */
export async function claimMark(dir: string, claim: MarkClaim, now: Date): Promise<boolean> {
  return claimMarkSync(dir, claim, now);
}

/**
 * {@link claimMark} for a caller that is synchronous itself (the turn end's granted-block callback,
 * under the session lock).
 */
export function claimMarkSync(dir: string, claim: MarkClaim, now: Date): boolean {
  // Made and checked like the state directory itself (core's fs-safe, private root): no component is a
  // link, each is the user's and private. The claim is O_CREAT|O_EXCL, which never follows a link.
  const { stateDir, relDir } = marksDirParts(dir);
  const checked = ensureDirSafelySync(stateDir, relDir, { rootKind: 'private' });
  try {
    writeFileSync(join(checked, claim.level), markContent(claim, now), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function markContent(claim: MarkClaim, now: Date): string {
  // An early action below L1 (a Principle 1 warning at 60 %) keeps the percent it was taken at: at
  // base L1 it would be forgotten by the next reading (still L0) and repeated after every tool call.
  const early = claim.readingLevel === 'L0' && claim.readingPercent !== undefined && Number.isFinite(claim.readingPercent);
  const content = early
    ? { by: claim.by, base: 'L0', atPercent: Math.round(claim.readingPercent! * 10) / 10, at: now.toISOString() }
    : { by: claim.by, base: claim.readingLevel === 'L0' ? 'L1' : claim.readingLevel, at: now.toISOString() };
  return `${JSON.stringify(content)}\n`;
}

/**
 * Forget the marks a reading at `level` falls below (a compaction, `/clear`): a mark is kept while the
 * reading is at or above its `base`, so the next climb is acted on again, while an early action (L2 at
 * an L1 reading) is not repeated at the reading it was taken at. The turn-end route lowers its own
 * levels in the session state the same way (`planContextStep`). An early action below L1 (base L0)
 * is forgotten once the reading is {@link EARLY_REARM_POINTS} points below the percent it was taken at.
 * Returns the marks kept.
 */
export async function lowerMarks(dir: string, marks: readonly LevelMark[], reading: ContextLevel | MarkReading): Promise<LevelMark[]> {
  const { level, percent } = typeof reading === 'string' ? { level: reading, percent: undefined } : reading;
  // Never delete through a directory that is not ours (a link planted as the marks directory would
  // have these removals hit files named L1/L2/L3 elsewhere).
  if (!checkMarksDir(dir)) return [];
  const kept: LevelMark[] = [];
  for (const mark of marks) {
    const fellBelowEarly = mark.atPercent !== undefined && percent !== undefined && percent < mark.atPercent - EARLY_REARM_POINTS;
    if (levelRank(mark.base) <= levelRank(level) && !fellBelowEarly) kept.push(mark);
    else rmSync(join(dir, mark.level), { force: true });
  }
  return kept;
}

/** The highest level among `marks` (optionally only one route's), or undefined when none. */
export function highestMark(marks: readonly LevelMark[], by?: MarkRoute): MonitorLevel | undefined {
  let best: MonitorLevel | undefined;
  for (const mark of marks) {
    if (by !== undefined && mark.by !== by) continue;
    if (best === undefined || levelRank(mark.level) > levelRank(best)) best = mark.level;
  }
  return best;
}

/** The mark a claim that lost finds in place (undefined when it vanished meanwhile). */
export async function readMark(dir: string, level: MonitorLevel): Promise<LevelMark | undefined> {
  return (await readMarks(dir)).find((mark) => mark.level === level);
}

/**
 * `dir` as {@link monitorMarksDir} built it: the state directory and the marks directory below it
 * (`monitor/<agent>-<key>`), so the safe writes can check every component from the state directory on.
 */
export function marksDirParts(dir: string): { readonly stateDir: string; readonly relDir: string } {
  return { stateDir: dirname(dirname(dir)), relDir: join(basename(dirname(dir)), basename(dir)) };
}

/**
 * True when the marks directory exists and, with `monitor/` above it, is a private directory of this
 * user (not a link, not owned by someone else, not group/world-writable); false when it does not exist.
 * Checked with two lstat calls (the monitor reads the marks after every tool call).
 *
 * @throws UnsafePathError when either is not private: the caller then acts on nothing.
 */
function checkMarksDir(dir: string): boolean {
  for (const path of [dirname(dir), dir]) {
    let info;
    try {
      info = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    if (info.isSymbolicLink()) throw new UnsafePathError(path, 'the level marks directory is a symlink (not followed)');
    if (!info.isDirectory()) throw new UnsafePathError(path, 'the level marks directory is not a directory');
    const problem = privateEntryProblem(info);
    if (problem !== undefined) throw new UnsafePathError(path, `the level marks directory is not private: ${problem}`);
  }
  return true;
}

function readMarkText(path: string): string | undefined {
  try {
    return readSmallFileSync(path);
  } catch {
    return undefined;
  }
}

function parseMark(level: MonitorLevel, text: string | undefined): LevelMark {
  const legacy: LevelMark = { level, by: 'monitor', base: 'L1' };
  if (text === undefined || !text.trimStart().startsWith('{')) return legacy;
  try {
    const json = JSON.parse(text) as { by?: unknown; base?: unknown; atPercent?: unknown };
    const by = json.by === 'monitor' || json.by === 'turn-end' ? json.by : undefined;
    if (by !== undefined && json.base === 'L0' && typeof json.atPercent === 'number' && Number.isFinite(json.atPercent)) {
      return { level, by, base: 'L0', atPercent: json.atPercent };
    }
    const base = MARK_LEVELS.find((l) => l === json.base);
    return by !== undefined && base !== undefined ? { level, by, base } : legacy;
  } catch {
    return legacy;
  }
}
