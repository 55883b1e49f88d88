import { realpathSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { findProjectRoot, readRegularFileSync, writeFileSafelySync } from '@agent-checkpoint/core';
import type { ContextCheckpointConfig } from '../config/context-config.ts';
import { projectKey } from '../metrics/project-key.ts';

/**
 * Seed 003's autonomous mode (`~/.claude/autonomous-mode.active`): while a loop runner runs in a
 * project, direct execution is on there. The flag is `<stateDir>/autonomous/<project key>.json`, in
 * the user's private state directory — never in the working tree, where the agent could plant it —
 * written only by `loop start` / `loop next` (each refreshes it) and removed by `loop end`. A flag
 * not refreshed for {@link AUTONOMOUS_STALE_MS} is stale: a runner that died without `loop end`
 * does not leave WIP commits switched on for good.
 */
export const AUTONOMOUS_DIR = 'autonomous';

/** A flag older than this (since the last `loop start` / `loop next`) no longer counts. */
export const AUTONOMOUS_STALE_MS = 6 * 60 * 60 * 1000;

/** Larger is not our flag. */
const MAX_FLAG_BYTES = 4096;

/** The flag file's content. */
export interface AutonomousFlag {
  readonly version: 1;
  /** The project's real path (the key is its hash; this makes the file self-describing). */
  readonly project: string;
  readonly started_at: string;
  /** The last `loop start` or `loop next`. */
  readonly refreshed_at: string;
}

/** Whether autonomous mode is on for a project, and why not. */
export type AutonomousState =
  | { readonly kind: 'active'; readonly flag: AutonomousFlag }
  | { readonly kind: 'inactive'; readonly reason: 'no-flag' | 'stale' | 'invalid' | 'other-project'; readonly detail?: string };

interface Where {
  /** The user's private state directory (`resolveStateDir`). */
  readonly stateDir: string;
  /** Any directory of the project: its root's real path is what is keyed. */
  readonly projectRoot: string;
}

function flagRelPath(projectRoot: string): string {
  return `${AUTONOMOUS_DIR}/${projectKey(realProject(projectRoot))}.json`;
}

/** The real path of the project a directory belongs to (`findProjectRoot`: the nearest `.git`), so a subdirectory finds its project's flag. */
function realProject(path: string): string {
  const root = findProjectRoot(path);
  try {
    return realpathSync(resolve(root));
  } catch {
    return resolve(root);
  }
}

/**
 * Switch autonomous mode on (`loop start`) or refresh it (`loop next`): `started_at` is kept when the
 * flag is fresh, renewed otherwise. Throws on I/O errors (the caller says so; the loop goes on).
 */
export function writeAutonomousFlag(where: Where & { readonly now: Date; readonly restart?: boolean }): AutonomousFlag {
  const current = where.restart === true ? undefined : readAutonomousState({ ...where, now: where.now });
  const flag: AutonomousFlag = {
    version: 1,
    project: realProject(where.projectRoot),
    started_at: current?.kind === 'active' ? current.flag.started_at : where.now.toISOString(),
    refreshed_at: where.now.toISOString(),
  };
  writeFileSafelySync(where.stateDir, flagRelPath(where.projectRoot), `${JSON.stringify(flag, null, 2)}\n`, { rootKind: 'private', mode: 0o600 });
  return flag;
}

/** `loop end`: switch autonomous mode off; true when a flag was there. */
export async function clearAutonomousFlag(where: Where): Promise<boolean> {
  try {
    await unlink(join(where.stateDir, flagRelPath(where.projectRoot)));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Read the project's flag. Never throws: anything unreadable or malformed is `invalid` (off). */
export function readAutonomousState(where: Where & { readonly now: Date }): AutonomousState {
  let text: string | undefined;
  try {
    text = readRegularFileSync(join(where.stateDir, flagRelPath(where.projectRoot)), MAX_FLAG_BYTES)?.text;
  } catch (error) {
    return { kind: 'inactive', reason: 'invalid', detail: error instanceof Error ? error.message : String(error) };
  }
  if (text === undefined) return { kind: 'inactive', reason: 'no-flag' };
  const flag = parseFlag(text);
  if (flag === undefined) return { kind: 'inactive', reason: 'invalid', detail: 'not an autonomous-mode flag' };
  if (flag.project !== realProject(where.projectRoot)) return { kind: 'inactive', reason: 'other-project' };
  const age = where.now.getTime() - Date.parse(flag.refreshed_at);
  if (!(age >= -60_000 && age <= AUTONOMOUS_STALE_MS)) return { kind: 'inactive', reason: 'stale', detail: `last refreshed ${flag.refreshed_at}` };
  return { kind: 'active', flag };
}

function parseFlag(text: string): AutonomousFlag | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const isDate = (d: unknown): d is string => typeof d === 'string' && !Number.isNaN(Date.parse(d));
  if (v['version'] !== 1 || typeof v['project'] !== 'string' || !isDate(v['started_at']) || !isDate(v['refreshed_at'])) return undefined;
  return { version: 1, project: v['project'], started_at: v['started_at'], refreshed_at: v['refreshed_at'] };
}

/**
 * The configuration a route acts with, autonomous mode applied. Precedence:
 * 1. `directExecution.enabled: true` (user configuration): on, loop or not;
 * 2. else, with `directExecution.duringLoop: true` (opt-in), a fresh flag of this project: on for the loop;
 * 3. else off.
 * Only `enabled` changes: what direct execution may do (`commit`, `push`, `remote`, `gitHooks`,
 * `noVerify`, `memoryFile`, `includeTrackedChanges`) stays what the privileged configuration says.
 * Without a state directory nothing is read.
 */
export function withAutonomousMode(
  cc: ContextCheckpointConfig,
  where: { readonly stateDir: string | undefined; readonly projectRoot: string; readonly now: Date },
): { readonly config: ContextCheckpointConfig; readonly autonomous: boolean } {
  const direct = cc.directExecution;
  if (direct.enabled || !direct.duringLoop || where.stateDir === undefined) return { config: cc, autonomous: false };
  const state = readAutonomousState({ stateDir: where.stateDir, projectRoot: where.projectRoot, now: where.now });
  if (state.kind !== 'active') return { config: cc, autonomous: false };
  return { config: { ...cc, directExecution: { ...direct, enabled: true } }, autonomous: true };
}
