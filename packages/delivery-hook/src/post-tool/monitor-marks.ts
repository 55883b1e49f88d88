import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core/hot-path';

/** The levels the monitor acts on, lowest first. */
const LEVELS = ['L1', 'L2', 'L3'] as const;
export type MarkLevel = (typeof LEVELS)[number];

/**
 * The monitor's memory of one session: one empty file per level acted on, under
 * `<stateDir>/monitor/<agent>-<sha256(session)[0..32]>/`. A level is claimed by creating its file
 * exclusively (`wx`), so two hooks of one session (parallel tool calls) never act twice on one level.
 * Its own files rather than core's session state: the session state needs core's zod schema, too
 * heavy for a hook that runs after every tool call.
 */
export function monitorMarksDir(stateDir: string, agent: AgentId, sessionId: string): string {
  const key = createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
  return join(stateDir, 'monitor', `${agent}-${key}`);
}

/** The levels already acted on (unknown files are ignored; a missing directory is none). */
export async function readMarks(dir: string): Promise<MarkLevel[]> {
  try {
    const names = new Set(await readdir(dir));
    return LEVELS.filter((level) => names.has(level));
  } catch {
    return [];
  }
}

/** Claim `level`: true when this call created its mark (and so must act), false when another did. */
export async function claimMark(dir: string, level: MarkLevel, now: Date): Promise<boolean> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(join(dir, level), `${now.toISOString()}\n`, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Forget the marks above `rank` (0 = L0 … 3): the context came back down (a compaction, `/clear`), so
 * the next climb is announced again.
 */
export async function lowerMarks(dir: string, marks: readonly MarkLevel[], rank: number): Promise<MarkLevel[]> {
  const kept: MarkLevel[] = [];
  for (const level of marks) {
    if (LEVELS.indexOf(level) + 1 <= rank) kept.push(level);
    else await rm(join(dir, level), { force: true });
  }
  return kept;
}
