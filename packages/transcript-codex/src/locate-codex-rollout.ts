import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { LocateTranscriptRequest } from '@agent-checkpoint/core';

/** Options of {@link locateCodexRollout}. */
export interface LocateCodexRolloutOptions {
  /** How many days back from today to try before searching (default 7). */
  readonly recentDays?: number;
  /** The current time (tests). */
  readonly now?: () => Date;
  /** Consult `state_5.sqlite` when `node:sqlite` is available (default true). */
  readonly useStateDb?: boolean;
}

/** Codex thread ids are UUIDs (v7 since 2025; v4 before). Anything else is refused, so no path tricks. */
export const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Find the rollout of a Codex thread: `<CODEX_HOME or ~/.codex>/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`.
 *
 * Order, cheapest first:
 * 1. the date directories of the thread's creation time (a UUIDv7 thread id encodes it; resumed
 *    sessions keep appending to the file in their original directory), in UTC and local time, ±1 day;
 * 2. today and the last `recentDays` days, UTC and local;
 * 3. `state_5.sqlite` `threads.rollout_path`, only when `node:sqlite` can be imported (Node >= 22.5;
 *    silently skipped on Node 20, never a native addon);
 * 4. a fast-glob search of `sessions/*\/*\/*\/`.
 * The newest file wins when several match. Resolves to undefined when nothing is found; never rejects.
 */
export async function locateCodexRollout(request: LocateTranscriptRequest, options: LocateCodexRolloutOptions = {}): Promise<string | undefined> {
  try {
    const threadId = request.sessionId?.trim();
    if (!threadId || !THREAD_ID.test(threadId)) return undefined;
    const home = codexHome(request);
    const sessions = join(home, 'sessions');
    const suffix = `-${threadId}.jsonl`;

    for (const day of candidateDays(threadId, options)) {
      const found = newest(filesIn(join(sessions, day), suffix));
      if (found) return found;
    }
    if (options.useStateDb !== false) {
      const fromDb = await rolloutPathFromStateDb(home, threadId);
      if (fromDb) return fromDb;
    }
    // Loaded on first use: the fallback search is rare, and fast-glob's module set would otherwise be
    // initialised in every hook process that imports this reader.
    const { default: fg } = await import('fast-glob');
    const matches = await fg(`sessions/*/*/*/rollout-*${suffix}`, {
      cwd: home,
      absolute: true,
      onlyFiles: true,
      suppressErrors: true,
      // `sessions` is sometimes a symlink to another disk; the pattern's fixed depth bounds the walk.
      followSymbolicLinks: true,
    });
    return newest(matches);
  } catch {
    return undefined;
  }
}

function codexHome(request: LocateTranscriptRequest): string {
  const fromEnv = request.env?.['CODEX_HOME']?.trim();
  if (fromEnv) return resolve(fromEnv);
  return join(request.homeDir ?? homedir(), '.codex');
}

/** `YYYY/MM/DD` directories to try, most likely first, without duplicates. */
export function candidateDays(threadId: string, options: LocateCodexRolloutOptions = {}): string[] {
  const days: string[] = [];
  const add = (date: Date): void => {
    for (const day of [utcDay(date), localDay(date)]) if (!days.includes(day)) days.push(day);
  };
  const created = uuidV7Time(threadId);
  if (created) {
    add(created);
    add(new Date(created.getTime() - 86_400_000));
    add(new Date(created.getTime() + 86_400_000));
  }
  const now = options.now?.() ?? new Date();
  const recentDays = Math.max(0, Math.floor(options.recentDays ?? 7));
  for (let back = 0; back <= recentDays; back += 1) add(new Date(now.getTime() - back * 86_400_000));
  return days;
}

/** The creation time encoded in a UUIDv7 (first 48 bits, Unix milliseconds), or undefined. */
export function uuidV7Time(id: string): Date | undefined {
  const hex = id.replace(/-/g, '');
  if (hex[12] !== '7') return undefined;
  const date = new Date(Number.parseInt(hex.slice(0, 12), 16));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function utcDay(date: Date): string {
  return `${date.getUTCFullYear()}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}`;
}

function localDay(date: Date): string {
  return `${date.getFullYear()}/${pad(date.getMonth() + 1)}/${pad(date.getDate())}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function filesIn(dir: string, suffix: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.startsWith('rollout-') && name.endsWith(suffix))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** The most recently modified regular file of `paths`. */
function newest(paths: readonly string[]): string | undefined {
  let best: { path: string; mtime: number } | undefined;
  for (const path of paths) {
    try {
      const stats = statSync(path);
      if (stats.isFile() && (!best || stats.mtimeMs > best.mtime)) best = { path, mtime: stats.mtimeMs };
    } catch {
      // Vanished between listing and stat.
    }
  }
  return best?.path;
}

interface SqliteModule {
  readonly DatabaseSync: new (
    path: string,
    options?: { readonly readOnly?: boolean; readonly open?: boolean },
  ) => {
    prepare(sql: string): { get(...params: unknown[]): unknown };
    close(): void;
  };
}

/**
 * `threads.rollout_path` from Codex's `state_5.sqlite`, when the runtime has `node:sqlite`. The import
 * is dynamic and its failure (Node 20, or Node 22 without the flag) is the normal "not available" path.
 */
async function rolloutPathFromStateDb(home: string, threadId: string): Promise<string | undefined> {
  const dbPath = join(home, 'state_5.sqlite');
  if (!isFile(dbPath)) return undefined;
  let sqlite: SqliteModule;
  try {
    const specifier = 'node:sqlite';
    sqlite = (await import(/* @vite-ignore */ specifier)) as SqliteModule;
  } catch {
    return undefined;
  }
  let db: InstanceType<SqliteModule['DatabaseSync']> | undefined;
  try {
    db = new sqlite.DatabaseSync(dbPath, { readOnly: true });
    const row = db.prepare('SELECT rollout_path FROM threads WHERE id = ?').get(threadId);
    const rolloutPath = typeof row === 'object' && row !== null ? (row as { rollout_path?: unknown }).rollout_path : undefined;
    if (typeof rolloutPath !== 'string' || !basename(rolloutPath).endsWith(`-${threadId}.jsonl`)) return undefined;
    return isFile(rolloutPath) ? rolloutPath : undefined;
  } catch {
    return undefined;
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a read-only handle cannot lose data.
    }
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
