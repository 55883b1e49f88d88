import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import fg from 'fast-glob';

/**
 * File helpers the profiles' latest-transcript lookups share (explain, doctor). Imported lazily by
 * the profiles: fast-glob must not load on the hook's hot path.
 */

/** `name` with glob syntax escaped, for a pattern segment. */
export function globSegment(name: string): string {
  return fg.escapePath(name);
}

/** The most recently modified file matching `patterns` under `cwd` (ties: the greater path). */
export async function newestFile(patterns: string[], cwd: string): Promise<string | undefined> {
  const files = await fg(patterns, { cwd, absolute: true, stats: true, onlyFiles: true, dot: true, suppressErrors: true, followSymbolicLinks: false });
  files.sort((a, b) => (b.stats?.mtimeMs ?? 0) - (a.stats?.mtimeMs ?? 0) || b.path.localeCompare(a.path));
  return files[0]?.path;
}

/** Files matching `pattern` under `cwd`, newest first. */
export async function filesNewestFirst(pattern: string, cwd: string): Promise<string[]> {
  const files = await fg(pattern, { cwd, absolute: true, stats: true, suppressErrors: true, followSymbolicLinks: false });
  files.sort((a, b) => (b.stats?.mtimeMs ?? 0) - (a.stats?.mtimeMs ?? 0));
  return files.map((f) => f.path);
}

/** The first `bytes` of a regular file as UTF-8; undefined for anything else or on error. */
export async function readFileHead(path: string, bytes: number): Promise<string | undefined> {
  let handle;
  try {
    // Non-blocking, and regular files only: a FIFO named as a transcript must not hang the command.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** The JSON string value of the first `"key": "…"` in `text`, decoded; undefined when absent. */
export function firstJsonString(text: string | undefined, key: string): string | undefined {
  const match = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(text ?? '');
  return match?.[1] === undefined ? undefined : (JSON.parse(match[1]) as string);
}
