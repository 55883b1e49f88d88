import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { ChangedFile, GitSnapshot } from './changed-file.ts';
import { LOG_FORMAT, parseLogNameStatus, type LogCommit } from './parse-log-name-status.ts';
import { parseStatusV2, type StatusEntry } from './parse-status-v2.ts';
import { filterDriversFromGitConfig, scanRepositoryFilterDrivers } from './find-filter-drivers.ts';
import { findWorkTreeRoot } from './find-work-tree-root.ts';
import { filterDriverOverrides } from './git-safety.ts';
import { runGit, type RunGitOptions, type RunGitResult } from './run-git.ts';
import { settleStartSecondCommits, type StartSecondCommit } from './settle-start-second-commits.ts';
import { statMtimes } from './stat-mtimes.ts';

/** Options of {@link readGitSnapshot}. */
export interface ReadGitSnapshotOptions {
  /** Time limit of each git call, in ms. A call that passes it is killed with its children. */
  readonly timeoutMs: number;
  /**
   * When the turn started (ms since the epoch). When set, files of commits made since then are included
   * with `source: 'committed'`: committer time (1 s resolution) after the start's second, or in that
   * very second and not proven older than the start by the object store or the reflog
   * ({@link settleStartSecondCommits}; `uncertainCommit` when nothing could tell).
   *
   * May be a promise: {@link getCheckpoint} starts `git status` before the transcript has told it when
   * the turn started, and the `git log` call starts as soon as the promise resolves. Resolving to
   * undefined skips the log call.
   */
  readonly sinceMs?: number | PromiseLike<number | undefined>;
  /** Aborts every git call; the snapshot is then `error`. */
  readonly signal?: AbortSignal;
  /** The git executable (default `git` on PATH). Tests pass scripts here. */
  readonly gitBinary?: string;
  /** Environment of the git processes (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Most commits read for the committed-during-turn axis (default 100). */
  readonly maxCommits?: number;
}

const DEFAULT_MAX_COMMITS = 100;
const SLASH_BYTES = Buffer.from('/');
/** What UTF-8 decoding puts in place of bytes that are not UTF-8. */
const REPLACEMENT = '\uFFFD';

/**
 * Read the file axis of a checkpoint: every uncommitted change of the repository containing `cwd`
 * (staged, unstaged and untracked, renames with their old path), plus, when `sinceMs` is given, the
 * files of commits made since the turn started.
 *
 * Cost: one git process, `status --porcelain=v2 --branch -z --untracked-files=all --no-ahead-behind`
 * (which also yields HEAD and the branch), with `rev-parse --show-toplevel` in parallel only when the
 * top level cannot be found in-process ({@link findWorkTreeRoot}: `core.worktree`, config includes,
 * Windows…), a `log` only with `sinceMs`; one `lstat` per file, the worktree's while the
 * `log` call runs. Only when a listed commit lies in the turn-start second: a fourth (`rev-parse
 * --git-path`, ~3 ms) and a few file reads (< 0.1 ms).
 *
 * Guarantees:
 * - read-only: `--no-optional-locks` and `GIT_OPTIONAL_LOCKS=0` keep `status` from refreshing the
 *   index, so a held `index.lock` neither blocks nor is touched; no config is ever written;
 * - runs nothing the repository's configuration names: no fsmonitor hook, no signature program, no
 *   transport, and the filter drivers defined in the repository's config are neutralised (a fourth,
 *   earlier `git config` process only when that config needs git to read, e.g. an `include`);
 * - every git call has a time limit and is killed with its children when it passes;
 * - never throws: a directory outside any work tree (including a bare repository or the `.git`
 *   directory itself) is `not-a-repo`; a missing git, a timeout, an abort or any other git failure is
 *   `error` with a one-line message;
 * - a repository without commits is a normal `repo` without `head`: every file is `added`/`untracked`.
 *
 * Paths: git's `-z` output is handled as bytes. `ChangedFile.path` is the UTF-8 decoding of those
 * bytes; bytes that are not valid UTF-8 become U+FFFD, which is also how agents' JSON transcripts show
 * such names (so attribution still matches them). `mtimeMs` is read with the raw bytes, so even such
 * files are stat'ed correctly.
 */
export async function readGitSnapshot(cwd: string, options: ReadGitSnapshotOptions): Promise<GitSnapshot> {
  // One controller for all calls: the caller's signal, plus our own early exits (a failed status must
  // not leave a `git log` running in the background until its time limit).
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  try {
    return await readSnapshot(cwd, options, controller);
  } finally {
    controller.abort();
    options.signal?.removeEventListener('abort', onAbort);
  }
}

async function readSnapshot(
  cwd: string,
  options: ReadGitSnapshotOptions,
  controller: AbortController,
): Promise<GitSnapshot> {
  const base = {
    cwd,
    timeoutMs: options.timeoutMs,
    signal: controller.signal,
    ...(options.gitBinary ? { gitBinary: options.gitBinary } : {}),
    ...(options.env ? { env: options.env } : {}),
  };
  // `git status` runs the clean filter of every stat-dirty file to compare its content; the filter
  // drivers the repository's config defines are switched off (git-safety.ts, find-filter-drivers.ts).
  // The common case answers synchronously, so `status` still starts in this tick.
  const scan = scanRepositoryFilterDrivers(cwd);
  const filters = scan.kind === 'drivers' ? scan : await filterDriversFromGit(cwd, base);
  if (filters.kind !== 'drivers') return filters;
  // `status` first: spawning costs the main thread a few ms, and status is the long call.
  const statusCall = runGit(
    [
      '--no-optional-locks',
      'status',
      '--porcelain=v2',
      '--branch',
      '-z',
      '--untracked-files=all',
      '--no-ahead-behind',
      // A submodule's uncommitted changes would be read by a `git status` inside it, under the
      // submodule's own config (its own filter drivers); its new commits are still listed.
      '--ignore-submodules=dirty',
    ],
    { ...base, config: filterDriverOverrides(filters.names) },
  );
  // The top level: found in-process on the plain layout (one git process less, ~3 ms of this
  // thread's CPU plus git's own), else `rev-parse`. Trusted only because status succeeds below: git
  // then found its repository by the same walk.
  const knownRoot = findWorkTreeRoot(cwd);
  const topLevelCall = knownRoot === undefined ? runGit(['rev-parse', '--show-toplevel'], base) : undefined;
  const logCall = readCommitsSince(options, base);

  const [status, topLevel] = await Promise.all([statusCall, topLevelCall]);
  const statusFailure = classifyFailure(status, 'status', cwd, options.gitBinary);
  if (statusFailure) return statusFailure; // the caller's finally aborts the log call
  const topFailure = topLevel === undefined ? undefined : classifyFailure(topLevel, 'rev-parse', cwd, options.gitBinary);
  if (topFailure) return topFailure;
  if (status.kind !== 'exited' || (topLevel !== undefined && topLevel.kind !== 'exited')) return { kind: 'error', message: 'git failed' };

  const rootBytes = topLevel === undefined ? (knownRoot as Buffer) : stripTrailingNewline(topLevel.stdout);
  const root = rootBytes.toString('utf8');
  const parsed = parseStatusV2(status.stdout);
  const diagnostics: string[] = [];
  // The turn start may still be unknown (a promise); wait for it and the log call at most one more
  // time limit.
  const logGuard = setTimeout(() => controller.abort(), options.timeoutMs);
  // The worktree files are stat'ed while `git log` (and the transcript read that tells it when the
  // turn began) is still running: at 5,000 changed files the stats are this process's largest cost.
  const names = decodedPaths(parsed.entries);
  const worktreeMtimes = statMtimes(statPaths(root, rootBytes, parsed.entries, names), options.signal);
  const log = await logCall;
  clearTimeout(logGuard);
  const committed: StatusEntry[] = [];
  let uncertain: ReadonlySet<string> | undefined;
  let startSecondCommits: readonly StartSecondCommit[] = [];
  if (log.kind === 'ok') {
    startSecondCommits = log.startSecond;
    if (log.uncertain.size > 0) uncertain = log.uncertain;
    if (log.entries.length > 0) {
      const inWorktree = new Set(parsed.entries.map((e) => e.path.toString('latin1')));
      for (const entry of log.entries) {
        if (!inWorktree.has(entry.path.toString('latin1'))) committed.push(entry);
      }
    }
  } else if (log.kind === 'failed' && parsed.head !== undefined) {
    diagnostics.push(`committed-during-turn files unavailable: ${log.message}`);
  }
  const mtimes = await worktreeMtimes;
  const committedNames = decodedPaths(committed);
  const committedMtimes = await statMtimes(statPaths(root, rootBytes, committed, committedNames), options.signal);

  const files: ChangedFile[] = new Array<ChangedFile>(parsed.entries.length + committed.length);
  parsed.entries.forEach((entry, i) => {
    files[i] = changedFile(entry, names[i] as string, 'worktree', mtimes[i]);
  });
  committed.forEach((entry, i) => {
    const file = changedFile(entry, committedNames[i] as string, 'committed', committedMtimes[i]);
    if (uncertain?.has(entry.path.toString('latin1'))) file.uncertainCommit = true;
    files[parsed.entries.length + i] = file;
  });

  // A named branch without commits is "unborn": the contract reports no branch until HEAD exists.
  const branch = parsed.head === undefined ? undefined : parsed.branchName;
  return {
    kind: 'repo',
    root,
    ...(parsed.head === undefined ? {} : { head: parsed.head }),
    ...(branch === undefined ? {} : { branch }),
    files,
    ...(startSecondCommits.length > 0 ? { startSecondCommits } : {}),
    ...(diagnostics.length > 0 ? { diagnostics } : {}),
  };
}

/**
 * The filter drivers to neutralise when the repository's config files need git to read (includes,
 * unusual syntax; the common case is read in-process by `scanRepositoryFilterDrivers`):
 * `git config --get-regexp`, which reads configuration, following includes, without running anything.
 */
async function filterDriversFromGit(
  cwd: string,
  base: RunGitOptions,
): Promise<{ readonly kind: 'drivers'; readonly names: readonly string[] } | Extract<GitSnapshot, { kind: 'error' | 'not-a-repo' }>> {
  const result = await runGit(['config', '-z', '--name-only', '--get-regexp', '^filter\\.'], base);
  // Exit 1: no such key.
  if (result.kind === 'exited' && result.code === 1 && result.stdout.length === 0) return { kind: 'drivers', names: [] };
  if (result.kind === 'exited' && result.code === 0) return { kind: 'drivers', names: filterDriversFromGitConfig(result.stdout) };
  const failure = classifyFailure(result, 'config', cwd, base.gitBinary);
  return failure ?? { kind: 'error', message: 'git config failed' };
}

/** Every entry's path as `ChangedFile.path` has it: UTF-8, invalid bytes as U+FFFD. Decoded once per file. */
function decodedPaths(entries: readonly StatusEntry[]): string[] {
  const out = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) out[i] = (entries[i] as StatusEntry).path.toString('utf8');
  return out;
}

/**
 * What to `lstat` for each entry: `<root>/<path>` as a string when both decoded without loss (no
 * U+FFFD), else as raw bytes; `undefined` for a deleted file, which has nothing on disk to stat.
 */
function statPaths(root: string, rootBytes: Buffer, entries: readonly StatusEntry[], names: readonly string[]): (string | Buffer | undefined)[] {
  const rootIsText = !root.includes(REPLACEMENT);
  const out = new Array<string | Buffer | undefined>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as StatusEntry;
    if (entry.status === 'deleted') continue;
    const name = names[i] as string;
    out[i] = rootIsText && !name.includes(REPLACEMENT) ? `${root}/${name}` : Buffer.concat([rootBytes, SLASH_BYTES, entry.path]);
  }
  return out;
}

/** A git entry as a {@link ChangedFile} (built without object spreads: there may be thousands). */
function changedFile(
  entry: StatusEntry,
  path: string,
  source: ChangedFile['source'],
  mtime: number | undefined,
): { -readonly [K in keyof ChangedFile]: ChangedFile[K] } {
  const file: { -readonly [K in keyof ChangedFile]: ChangedFile[K] } = { path, status: entry.status, source };
  if (entry.fromPath) file.fromPath = entry.fromPath.toString('utf8');
  if (mtime !== undefined && entry.status !== 'deleted') file.mtimeMs = mtime;
  return file;
}

type LogOutcome =
  | { readonly kind: 'skipped' }
  | {
      readonly kind: 'ok';
      readonly entries: readonly StatusEntry[];
      /** Keys (latin1) of entries that only commits of the start second with no verdict contribute. */
      readonly uncertain: ReadonlySet<string>;
      readonly startSecond: readonly StartSecondCommit[];
    }
  | { readonly kind: 'failed'; readonly message: string };

async function readCommitsSince(
  options: ReadGitSnapshotOptions,
  base: RunGitOptions & { readonly signal: AbortSignal },
): Promise<LogOutcome> {
  let sinceMs: number | undefined;
  try {
    sinceMs = await untilAborted(options.sinceMs, base.signal);
  } catch {
    return { kind: 'skipped' };
  }
  if (base.signal.aborted) return { kind: 'failed', message: 'turn start not known within the time limit' };
  if (sinceMs === undefined || !Number.isFinite(sinceMs)) return { kind: 'skipped' };
  const sinceSec = Math.floor(sinceMs / 1000);
  const result = await runGit(
    [
      '--no-optional-locks',
      'log',
      '-z',
      '--no-color',
      '--no-show-signature',
      // Commits on this branch only; a merge made during the turn shows its diff against the branch.
      '--first-parent',
      '-m',
      '-M',
      '--name-status',
      LOG_FORMAT,
      `--max-count=${options.maxCommits ?? DEFAULT_MAX_COMMITS}`,
      `--since=@${sinceSec}`,
      'HEAD',
      '--',
    ],
    base,
  );
  if (result.kind !== 'exited') return { kind: 'failed', message: describeRunFailure(result, 'log') };
  if (result.code !== 0) return { kind: 'failed', message: firstLine(result.stderr) || `git log exited ${result.code}` };

  // `--since` stops at the first older commit; the explicit filter guards against clock skew.
  const listed = parseLogNameStatus(result.stdout);
  const commits = listed.filter((c) => c.committedAtSec >= sinceSec);
  // Commit times have 1 s resolution: a commit of the turn-start second may predate the prompt (a loop
  // runner's or the previous turn's commit). Only those need more evidence, so the common path (no
  // commit in that second) costs nothing more.
  const startSecond = await settleStartSecond(commits, listed[0]?.oid ?? '', sinceSec, sinceMs, base);
  const verdicts = new Map(startSecond.map((c) => [c.oid, c.verdict]));

  // Newest first. A path committed several times keeps its newest status, except that a file added
  // during the turn stays "added" whatever later commits did to it (short of deleting it).
  const byPath = new Map<string, StatusEntry>();
  const certain = new Set<string>();
  for (const commit of commits) {
    const verdict = verdicts.get(commit.oid);
    if (verdict === 'before-turn') continue;
    for (const file of commit.files) {
      const key = file.path.toString('latin1');
      if (verdict !== 'unknown') certain.add(key);
      const newer = byPath.get(key);
      if (newer === undefined) byPath.set(key, file);
      else if (file.status === 'added' && newer.status === 'modified') byPath.set(key, { ...newer, status: 'added' });
    }
  }
  const uncertain = new Set<string>();
  if (certain.size < byPath.size) for (const key of byPath.keys()) if (!certain.has(key)) uncertain.add(key);
  return { kind: 'ok', entries: [...byPath.values()], uncertain, startSecond };
}

/**
 * Verdicts for the listed commits whose committer second is the turn-start second (none → no work).
 * One extra git process finds the object directory and HEAD's reflog (linked worktrees resolved by git
 * itself; `GIT_DIR`-like variables are scrubbed by `runGit`); the rest is a few file reads
 * ({@link settleStartSecondCommits}).
 */
async function settleStartSecond(
  commits: readonly LogCommit[],
  tipOid: string,
  sinceSec: number,
  sinceMs: number,
  base: RunGitOptions & { readonly signal: AbortSignal },
): Promise<StartSecondCommit[]> {
  const oids = commits.filter((c) => c.committedAtSec === sinceSec).map((c) => c.oid);
  if (oids.length === 0) return [];
  const unknown = (): StartSecondCommit[] => oids.map((oid) => ({ oid, verdict: 'unknown', evidence: 'none' }));
  const paths = await runGit(['rev-parse', '--git-path', 'objects', '--git-path', 'logs/HEAD'], base);
  if (paths.kind !== 'exited' || paths.code !== 0) return unknown();
  const lines = stripTrailingNewline(paths.stdout).toString('utf8').split('\n');
  // A git directory whose path holds a newline cannot be split safely: no evidence then.
  if (lines.length !== 2) return unknown();
  const [objects = '', reflog = ''] = lines;
  return settleStartSecondCommits({
    objectsDir: resolvePath(base.cwd, objects),
    headReflog: resolvePath(base.cwd, reflog),
    oids,
    tipOid,
    turnStartMs: sinceMs,
  });
}

/** Resolve like `value`, or with undefined once `signal` aborts, whichever comes first. */
function untilAborted<T>(value: T | PromiseLike<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(value).then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Turn a failed or non-zero git call into a snapshot; undefined when the call succeeded. */
function classifyFailure(
  result: RunGitResult,
  what: string,
  cwd: string,
  gitBinary: string | undefined,
): Extract<GitSnapshot, { kind: 'not-a-repo' | 'error' }> | undefined {
  if (result.kind === 'exited') {
    if (result.code === 0) return undefined;
    if (/not a git repository|must be run in a work tree/i.test(result.stderr)) return { kind: 'not-a-repo' };
    return { kind: 'error', message: `git ${what} failed: ${firstLine(result.stderr) || `exit code ${result.code}`}` };
  }
  if (result.kind === 'spawn-error' && result.code === 'ENOENT') {
    // Node reports a missing cwd and a missing executable with the same ENOENT.
    if (!isDirectory(cwd)) return { kind: 'error', message: `working directory does not exist: ${cwd}` };
    return { kind: 'error', message: `git executable not found (${gitBinary ?? 'git'} on PATH)` };
  }
  return { kind: 'error', message: describeRunFailure(result, what) };
}

function describeRunFailure(result: Exclude<RunGitResult, { kind: 'exited' }>, what: string): string {
  switch (result.kind) {
    case 'timeout':
      return `git ${what} timed out after ${result.ms} ms`;
    case 'aborted':
      return `git ${what} aborted`;
    case 'spawn-error':
      return `git ${what} could not start: ${result.message}`;
    case 'killed':
      return `git ${what} was killed by ${result.signal}`;
    case 'output-too-large':
      return `git ${what} output exceeded ${result.limit} bytes`;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? ''
  );
}

function stripTrailingNewline(bytes: Buffer): Buffer {
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d)) end--;
  return bytes.subarray(0, end);
}
