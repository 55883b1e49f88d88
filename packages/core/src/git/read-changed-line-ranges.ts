import { filterDriversFromGitConfig, scanRepositoryFilterDrivers } from './find-filter-drivers.ts';
import { filterDriverOverrides } from './git-safety.ts';
import { runGit, type RunGitOptions } from './run-git.ts';

/** Lines `start`–`end` (1-based, inclusive) of a file's current content. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

/** Options of {@link readChangedLineRanges}. */
export interface ReadChangedLineRangesOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly gitBinary?: string;
  /** Most diff bytes read; a larger diff gives no ranges at all. Default 4 MiB. */
  readonly maxDiffBytes?: number;
}

/** Most ranges kept per file (the first ones; neighbours closer than {@link MERGE_GAP} lines are merged first). */
export const MAX_RANGES_PER_FILE = 5;
/** Ranges this close (in lines) become one: "lines 45-120" reads better than ten small hunks. */
const MERGE_GAP = 10;
const DEFAULT_MAX_DIFF_BYTES = 4 * 1024 * 1024;

/**
 * The line ranges of the work tree's uncommitted changes to tracked files, per repo-relative path
 * (`git diff -U0 HEAD`: the new side of each hunk; a pure deletion is the line it happened at).
 * Untracked files, binary files, paths git has to quote and deleted files have no entry.
 *
 * The read profile like every git call of the product: no external diff, no textconv, and the
 * repository's filter drivers switched off (a diff runs the clean filter of stat-dirty files), see
 * `git-safety.ts`. Bounded: time limit, output cap (a larger diff gives an empty map). Never throws:
 * any failure (no commits yet, not a repository, timeout) is an empty map.
 */
export async function readChangedLineRanges(cwd: string, options: ReadChangedLineRangesOptions): Promise<ReadonlyMap<string, readonly LineRange[]>> {
  const base: RunGitOptions = {
    cwd,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.gitBinary ? { gitBinary: options.gitBinary } : {}),
  };
  const drivers = await filterDrivers(cwd, base);
  if (drivers === undefined) return new Map();
  const result = await runGit(
    ['--no-optional-locks', 'diff', '--no-ext-diff', '--no-textconv', '--no-color', '--no-renames', '-U0', '--src-prefix=a/', '--dst-prefix=b/', 'HEAD', '--'],
    { ...base, config: [...filterDriverOverrides(drivers), ['core.quotePath', 'false']], maxOutputBytes: options.maxDiffBytes ?? DEFAULT_MAX_DIFF_BYTES },
  );
  if (result.kind !== 'exited' || result.code !== 0) return new Map();
  return parseUnifiedZeroDiff(result.stdout.toString('utf8'));
}

/** The repository's filter drivers (in-process, else `git config`); undefined when they cannot be known. */
async function filterDrivers(cwd: string, base: RunGitOptions): Promise<readonly string[] | undefined> {
  const scan = scanRepositoryFilterDrivers(cwd);
  if (scan.kind === 'drivers') return scan.names;
  const result = await runGit(['config', '-z', '--name-only', '--get-regexp', '^filter\\.'], base);
  if (result.kind === 'exited' && result.code === 1 && result.stdout.length === 0) return [];
  return result.kind === 'exited' && result.code === 0 ? filterDriversFromGitConfig(result.stdout) : undefined;
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/** Parse `git diff -U0` output into the new side's line ranges per file. Pure; exported for tests. */
export function parseUnifiedZeroDiff(diff: string): Map<string, LineRange[]> {
  const out = new Map<string, LineRange[]>();
  let current: LineRange[] | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = undefined;
      continue;
    }
    if (line.startsWith('+++ ')) {
      // git ends a name holding a space with a tab (a tab inside a name is quoted).
      const target = line.endsWith('\t') ? line.slice(4, -1) : line.slice(4);
      // `/dev/null` (deleted) and C-quoted names (control characters, quotes) get no entry.
      if (!target.startsWith('b/') || target.length <= 2) current = undefined;
      else {
        current = [];
        out.set(target.slice(2), current);
      }
      continue;
    }
    if (current === undefined || !line.startsWith('@@ ')) continue;
    const hunk = HUNK.exec(line);
    if (hunk?.[1] === undefined) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    // A pure deletion (`+N,0`) happened after line N: that line is where to look.
    current.push(count === 0 ? { start: Math.max(1, start), end: Math.max(1, start) } : { start, end: start + count - 1 });
  }
  for (const [path, ranges] of out) {
    if (ranges.length === 0) out.delete(path);
    else out.set(path, mergeRanges(ranges).slice(0, MAX_RANGES_PER_FILE));
  }
  return out;
}

function mergeRanges(ranges: readonly LineRange[]): LineRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: LineRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && range.start <= last.end + MERGE_GAP) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, range.end) };
    else merged.push(range);
  }
  return merged;
}

/** `45-120`, `7`, `3-9, 40-52`: a file's ranges as the handoff and the resume prompt show them. */
export function formatLineRanges(ranges: readonly LineRange[]): string {
  return ranges.map((r) => (r.start === r.end ? String(r.start) : `${r.start}-${r.end}`)).join(', ');
}
