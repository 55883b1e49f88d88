import { setTimeout as sleep } from 'node:timers/promises';
import type { TempGitRepo } from '../git/temp-git-repo.ts';

/** What {@link commitsAroundTurnStart} made. */
export interface CommitsAroundTurnStart {
  /** The turn start (ms): `second * 1000 + startOffsetMs`. */
  readonly turnStartMs: number;
  /** The second both commits carry as committer (and author) time. */
  readonly second: number;
  /** The commit made before the turn start, and when `git commit` returned (ms). */
  readonly beforeOid: string;
  readonly beforeDoneMs: number;
  /** The commit made after the turn start (when `after` was given), and when `git commit` began (ms). */
  readonly afterOid?: string;
  readonly afterBeganMs?: number;
}

/** Options of {@link commitsAroundTurnStart}. */
export interface CommitsAroundTurnStartOptions {
  /** Stages the commit made before the turn (runs once, even when the commit is retried). */
  readonly before: () => void;
  /** Stages the commit made after the turn start; no second commit without it. */
  readonly after?: () => void;
  /** Where in the second the turn starts (ms, default 600). */
  readonly startOffsetMs?: number;
  /** Least distance of each commit from the turn start (ms, default 200). */
  readonly gapMs?: number;
  /** Seconds to try before giving up on a machine too slow to commit inside the window (default 8). */
  readonly attempts?: number;
}

/**
 * Test support (not exported from the package): real commits at sub-second offsets on both sides of a
 * turn start inside one wall-clock second, the loop runner's case. Waits for a fresh second S, commits
 * `before` (real time S.0xx, at least `gapMs` before the start), takes S.`startOffsetMs` as the turn
 * start, waits until `gapMs` after it and commits `after`. Both commits carry committer time S (what
 * git records at 1 s resolution for a commit made in S); their object files carry the real times.
 *
 * A machine too slow to finish the first commit `gapMs` before the start undoes it (`reset --soft`) and
 * tries again in the next second, at most `attempts` times; every wait has a deadline.
 */
export async function commitsAroundTurnStart(repo: TempGitRepo, options: CommitsAroundTurnStartOptions): Promise<CommitsAroundTurnStart> {
  const startOffsetMs = options.startOffsetMs ?? 600;
  const gapMs = options.gapMs ?? 200;
  options.before();
  for (let attempt = 0; attempt < (options.attempts ?? 8); attempt++) {
    const second = Math.floor(Date.now() / 1000) + 1;
    await sleepUntil(second * 1000);
    repo.commit('before the turn', second);
    const beforeDoneMs = Date.now();
    const turnStartMs = second * 1000 + startOffsetMs;
    if (beforeDoneMs > turnStartMs - gapMs) {
      repo.git(['reset', '-q', '--soft', 'HEAD~1']);
      continue;
    }
    const beforeOid = repo.git(['rev-parse', 'HEAD']).trim();
    if (!options.after) return { turnStartMs, second, beforeOid, beforeDoneMs };
    options.after();
    await sleepUntil(turnStartMs + gapMs);
    const afterBeganMs = Date.now();
    repo.commit('during the turn', second);
    return { turnStartMs, second, beforeOid, beforeDoneMs, afterOid: repo.git(['rev-parse', 'HEAD']).trim(), afterBeganMs };
  }
  throw new Error('could not commit within the first part of a second: machine too slow');
}

/** Sleep until the wall clock reaches `ms`, in short steps; a target more than 5 s away is a bug. */
export async function sleepUntil(ms: number): Promise<void> {
  if (ms - Date.now() > 5_000) throw new Error(`sleepUntil: ${ms - Date.now()} ms is too far ahead`);
  for (let now = Date.now(); now < ms; now = Date.now()) await sleep(Math.min(20, ms - now));
}
