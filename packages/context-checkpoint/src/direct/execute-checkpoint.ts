import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { type AgentId, type ChangedFile, type GitSnapshot, readGitSnapshot, readRegularFileBytesSync, readRegularFileSync, writeFileSafelySync } from '@agent-checkpoint/core';
import type { ResolvedDirectExecutionConfig } from '../config/context-config.ts';
import { AGENT_CHECKPOINT_DIR, ensureAgentCheckpointDir, isInAgentCheckpointDir } from '../handoff/agent-checkpoint-dir.ts';
import { clockParts } from '../handoff/clock-parts.ts';
import type { HandoffData } from '../handoff/handoff-types.ts';
import { firstLine } from '../handoff/markdown-text.ts';
import { memoryFileFor } from '../handoff/memory-files.ts';
import { triggerLabel } from '../handoff/render-handoff.ts';
import { writeHandoff, type WrittenHandoff } from '../handoff/write-handoff.ts';
import { appendLogEntries, type CheckpointLogEntry, type CheckpointStep } from './checkpoint-log.ts';
import { openDirectGitProfile, type DirectGitProfile } from './direct-git-profile.ts';
import { gitStep, type GitContext } from './git-step.ts';
import { pushWithRetry } from './push-retry.ts';
import { newMemoryFileText, renderLastSessionBody, replaceLastSessionSection, type LastSessionInfo } from './last-session-section.ts';
import { resolveMemoryFile, type MemoryFileLocation } from './resolve-memory-file.ts';

/** Larger than this, the direct state file is not ours (it holds a digest and a commit id). */
const MAX_DIRECT_STATE_BYTES = 64 * 1024;
/** Larger than this, a memory file is not edited (agents load far less into the context). */
const MAX_MEMORY_FILE_BYTES = 4 * 1024 * 1024;

/** Where direct execution remembers its last checkpoint (for idempotency), inside `.agent-checkpoint/`. */
export const DIRECT_STATE_FILE = 'direct-checkpoint.json';

/** The handoff content; the executor adds the agent, the repository root and a fresh git snapshot. */
export type CheckpointHandoffInput = Omit<HandoffData, 'agent' | 'projectRoot' | 'git'>;

/** Options of {@link executeCheckpoint}. */
export interface ExecuteCheckpointOptions {
  /** Any directory inside the project (the session cwd will do): the repository root is found from it. */
  readonly projectRoot: string;
  readonly agent: AgentId;
  readonly handoff: CheckpointHandoffInput;
  /** `directExecution` settings (only `enabled` is not read: calling this means "execute"). */
  readonly config: ResolvedDirectExecutionConfig;
  /** Repo-relative handoff directory (`handoff.dir`); default `.agent-checkpoint/handoffs`. */
  readonly handoffDir?: string;
  /** The clock of the handoff and the memory-file section. */
  readonly now: Date;
  /** IANA zone for dates shown (default: local). */
  readonly timeZone?: string;
  /** Called with every log entry as it happens (besides the returned `log` and `config.logFile`). */
  readonly log?: (entry: CheckpointLogEntry) => void;
  /** Time of log entries (default: the real clock). */
  readonly clock?: () => Date;
  /** The user's private state directory, where the handoff is recorded as ours (see `writeHandoff`). */
  readonly stateDir?: string;
  /** Environment of git (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly gitBinary?: string;
  readonly signal?: AbortSignal;
  /**
   * The hook's deadline (`Date.now()` clock): push retries never wait or run past it. Without it,
   * retries are bounded by `signal`, `pushRetries` and `timeoutMs` alone.
   */
  readonly deadlineAt?: number;
  /**
   * The loop runner's iteration (from `.agent-checkpoint/loop-state.json`): the commit message's
   * `{iteration}`, and a `Loop-Iteration: N` trailer so every WIP commit of a loop says which
   * iteration made it (RLP: "ralph: checkpoint iter N").
   */
  readonly loopIteration?: number;
  /**
   * The issue id of the branch (`ANV-123`, found with `tracker.issuePattern`): the commit message's
   * `{issue}`. Without one, `{issue} - ` (or a lone `{issue}`) is dropped from the message.
   */
  readonly issueId?: string;
}

/** A WIP commit that was created. */
export interface CheckpointCommit {
  readonly sha: string;
  /** Repo-relative paths the commit was restricted to. */
  readonly paths: readonly string[];
}

/**
 * Result of {@link executeCheckpoint}.
 * - `done`: the handoff is written and the memory file updated; `commit` is set when a commit was made
 *   (it may legitimately be skipped: commits disabled, not a repository, a merge in progress…);
 *   `push` reports a push attempt. A failed push leaves the status `done`: the local commit stands.
 * - `nothing-changed`: nothing changed since the last checkpoint (or the tree is clean): the handoff
 *   is written, the memory file and git are untouched.
 * - `fallback`: a step failed; anything half-done was rolled back (the memory file is restored byte
 *   for byte). The caller should ask the agent to checkpoint instead, quoting `fallbackReason`.
 */
export interface ExecuteCheckpointResult {
  readonly status: 'done' | 'nothing-changed' | 'fallback';
  readonly fallbackReason?: string;
  readonly handoff?: WrittenHandoff;
  /** Repo-relative path of the memory file that was updated (or created). */
  readonly memoryFile?: string;
  readonly commit?: CheckpointCommit;
  /** A push attempt; `attempts` counts `git push` runs (retries of transient failures included). */
  readonly push?: { readonly status: 'pushed' | 'skipped' | 'failed'; readonly message: string; readonly attempts?: number };
  readonly log: readonly CheckpointLogEntry[];
}

interface DirectState {
  readonly version: 1;
  readonly head: string | null;
  readonly fingerprint: string;
  readonly at: string;
  readonly handoff?: string;
}

/**
 * Execute a context checkpoint without the agent (seed 003, opt-in): write the handoff, update the
 * `## Last Session` section of the agent's memory file, and create a WIP commit.
 *
 * **What is committed**: exactly the memory file (the only file this writes that is not git-ignored:
 * handoffs live in the self-ignored `.agent-checkpoint/`), plus, with `includeTrackedChanges`, every
 * tracked file with uncommitted changes (their working-tree content). Untracked files are never
 * committed. The commit is `git commit --only -- <paths>`: changes the user had staged for other
 * paths stay staged and out of the commit. The memory file is committed whole (including the user's
 * own edits to it). The message comes from a temp file (`-F`); `--no-verify` only when configured.
 * Commit and push use core's write profile: no hook but those `gitHooks` names, no signing, and no
 * program, transport or credential helper the repository's configuration chooses.
 *
 * **Idempotent**: with a clean working tree, or when neither HEAD nor the uncommitted files (status
 * and mtime, the memory file excepted) changed since the last checkpoint, nothing is written besides
 * the handoff (`nothing-changed`).
 *
 * **Edge cases**: outside a repository the handoff and memory file are written and nothing is
 * committed; with a merge, rebase, cherry-pick, revert or bisect in progress no commit is made; on a
 * detached HEAD the commit is made (with a warning: no branch points at it) and never pushed; in a
 * repository without commits it becomes the root commit; a git-ignored memory file is updated but not
 * committed. A push needs `push: true`, a branch, and the remote; its failure is reported, the local
 * commit stands.
 *
 * Every step is logged (`log` callback, the returned array, and `config.logFile` when set). Never
 * throws. Git calls use core's time-limited runner (`timeoutMs` each).
 */
export async function executeCheckpoint(options: ExecuteCheckpointOptions): Promise<ExecuteCheckpointResult> {
  const entries: CheckpointLogEntry[] = [];
  const clock = options.clock ?? (() => new Date());
  const record = (step: CheckpointStep, status: CheckpointLogEntry['status'], message: string): void => {
    const entry: CheckpointLogEntry = { at: clock().toISOString(), step, status, message };
    entries.push(entry);
    try {
      options.log?.(entry);
    } catch {
      /* a failing logger must not break the checkpoint */
    }
  };
  let root = resolve(options.projectRoot);
  let outcome: Omit<ExecuteCheckpointResult, 'log'>;
  try {
    outcome = await run(options, record, (r) => (root = r));
  } catch (error) {
    record('repository', 'failed', `unexpected error: ${errorMessage(error)}`);
    outcome = { status: 'fallback', fallbackReason: `unexpected error: ${errorMessage(error)}` };
  }
  if (options.config.logFile !== undefined) {
    const path = join(root, options.config.logFile);
    try {
      if (isInAgentCheckpointDir(options.config.logFile)) await ensureAgentCheckpointDir(root);
      await appendLogEntries(root, options.config.logFile, entries);
    } catch (error) {
      record('log-file', 'failed', `cannot append to ${path}: ${errorMessage(error)}`);
    }
  }
  return { ...outcome, log: entries };
}

type RecordFn = (step: CheckpointStep, status: CheckpointLogEntry['status'], message: string) => void;

async function run(options: ExecuteCheckpointOptions, record: RecordFn, setRoot: (root: string) => void): Promise<Omit<ExecuteCheckpointResult, 'log'>> {
  const cfg = options.config;
  const gitEnv = {
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };

  // 1. Repository.
  const snapshot = await readGitSnapshot(options.projectRoot, { timeoutMs: cfg.timeoutMs, ...gitEnv });
  if (snapshot.kind === 'error') {
    record('repository', 'failed', `git status failed: ${snapshot.message}`);
    return { status: 'fallback', fallbackReason: `git status failed: ${snapshot.message}` };
  }
  const repo = snapshot.kind === 'repo' ? snapshot : undefined;
  const root = repo ? repo.root : resolve(options.projectRoot);
  setRoot(root);
  if (repo) record('repository', 'ok', `${root} on ${branchText(repo)}`);
  else record('repository', 'warning', `${root} is not in a git repository: the handoff and memory file are written, nothing is committed`);
  const ctx: GitContext = { cwd: root, timeoutMs: cfg.timeoutMs, ...gitEnv };

  // 2. Handoff (always: it is local, git-ignored and never overwrites).
  const written = await writeHandoff({
    projectRoot: root,
    data: { ...options.handoff, agent: options.agent, projectRoot: root, git: snapshot },
    now: options.now,
    ...(options.timeZone !== undefined ? { timeZone: options.timeZone } : {}),
    ...(options.handoffDir !== undefined ? { dir: options.handoffDir } : {}),
    ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}),
  });
  if (!written.ok) {
    record('handoff', 'failed', written.error);
    return { status: 'fallback', fallbackReason: written.error };
  }
  const handoff = written.handoff;
  record('handoff', 'ok', `wrote ${handoff.relativePath}`);

  // 3. Memory file location.
  const memory = await resolveMemoryFile(root, cfg.memoryFile ?? memoryFileFor(options.agent));
  if ('error' in memory) {
    record('memory-file', 'failed', memory.error);
    return { status: 'fallback', fallbackReason: memory.error, handoff };
  }

  // 4. Changes since the last checkpoint.
  const userFiles = repo ? pendingFiles(repo, memory.repoPath) : [];
  const fingerprint = fingerprintOf(userFiles);
  if (repo) {
    const memoryChanged = repo.files.some((f) => f.source === 'worktree' && f.path === memory.repoPath);
    if (userFiles.length === 0 && !memoryChanged) {
      record('changes', 'skipped', 'working tree clean: nothing to checkpoint');
      return { status: 'nothing-changed', handoff };
    }
    const last = await readDirectState(root);
    if (last && last.head === (repo.head ?? null) && last.fingerprint === fingerprint) {
      record('changes', 'skipped', `nothing changed since the last checkpoint${last.head ? ` (${last.head.slice(0, 7)})` : ''}`);
      return { status: 'nothing-changed', handoff };
    }
    record('changes', 'ok', `${userFiles.length} uncommitted file(s) besides the memory file`);
  }

  // 5. Memory file.
  const info = lastSessionInfo(options, repo, handoff, userFiles);
  const update = await updateMemoryFile(memory, renderLastSessionBody(info));
  if ('error' in update) {
    record('memory-file', 'failed', update.error);
    return { status: 'fallback', fallbackReason: update.error, handoff };
  }
  record('memory-file', 'ok', `${memory.exists ? 'updated' : 'created'} ${memory.repoPath} (## Last Session)`);

  let commit: CheckpointCommit | undefined;
  let push: ExecuteCheckpointResult['push'];
  if (repo) {
    // 6. Commit.
    if (!cfg.commit) record('commit', 'skipped', 'commits disabled (directExecution.commit: false)');
    else {
      // Every writing git process gets core's write profile: nothing the repository configures runs.
      const profile = await openDirectGitProfile(ctx, cfg.gitHooks);
      if ('error' in profile) {
        record('commit', 'failed', profile.error);
        await rollback(update.restore, false, ctx, memory, record);
        return { status: 'fallback', fallbackReason: profile.error, handoff };
      }
      try {
        const writeCtx: GitContext = { ...ctx, profile: profile.profile };
        const committed = await commitCheckpoint(writeCtx, cfg, repo, memory, userFiles, options, handoff, record);
        if ('error' in committed) {
          await rollback(update.restore, committed.undoIntent, writeCtx, memory, record);
          return { status: 'fallback', fallbackReason: committed.error, handoff };
        }
        commit = committed.commit;

        // 7. Push.
        if (commit && cfg.push) push = await pushCheckpoint(writeCtx, profile, cfg, repo, record, options.deadlineAt);
      } finally {
        await profile.close();
      }
    }

    // 8. State for idempotency, from the tree as it is now.
    const after = await readGitSnapshot(root, { timeoutMs: cfg.timeoutMs, ...gitEnv });
    if (after.kind === 'repo') {
      const state: DirectState = {
        version: 1,
        head: after.head ?? null,
        fingerprint: fingerprintOf(pendingFiles(after, memory.repoPath)),
        at: options.now.toISOString(),
        handoff: handoff.relativePath,
      };
      try {
        await ensureAgentCheckpointDir(root);
        writeFileSafelySync(root, `${AGENT_CHECKPOINT_DIR}/${DIRECT_STATE_FILE}`, `${JSON.stringify(state, null, 2)}\n`, { dirMode: 0o755 });
        record('state', 'ok', `remembered ${state.head?.slice(0, 7) ?? 'no HEAD'}`);
      } catch (error) {
        record('state', 'warning', `cannot write ${AGENT_CHECKPOINT_DIR}/${DIRECT_STATE_FILE}: ${errorMessage(error)}`);
      }
    } else {
      record('state', 'warning', 'git status failed after the commit; the next checkpoint will not be deduplicated');
    }
  }
  return {
    status: 'done',
    handoff,
    memoryFile: memory.repoPath,
    ...(commit ? { commit } : {}),
    ...(push ? { push } : {}),
  };
}

/** Uncommitted files other than the memory file and our own directory. */
function pendingFiles(repo: Extract<GitSnapshot, { kind: 'repo' }>, memoryPath: string): ChangedFile[] {
  return repo.files.filter((f) => f.source === 'worktree' && f.path !== memoryPath && !isInAgentCheckpointDir(f.path));
}

/** Status, paths and mtimes: changes whenever a file is edited, staged, added or removed. */
function fingerprintOf(files: readonly ChangedFile[]): string {
  const rows = files.map((f) => [f.status, f.path, f.fromPath ?? '', f.mtimeMs ?? -1] as const).sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

async function readDirectState(root: string): Promise<DirectState | undefined> {
  try {
    // Non-blocking, regular files only, capped, never through a link: the file sits in the work tree.
    const text = readRegularFileSync(join(root, AGENT_CHECKPOINT_DIR, DIRECT_STATE_FILE), MAX_DIRECT_STATE_BYTES)?.text;
    if (text === undefined) return undefined;
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const s = parsed as { [key: string]: unknown };
    if (s['version'] !== 1 || typeof s['fingerprint'] !== 'string' || !(typeof s['head'] === 'string' || s['head'] === null)) return undefined;
    return parsed as DirectState;
  } catch {
    return undefined;
  }
}

function branchText(repo: Extract<GitSnapshot, { kind: 'repo' }>): string {
  if (repo.branch !== undefined) return `branch ${repo.branch}`;
  return repo.head !== undefined ? `detached HEAD ${repo.head.slice(0, 7)}` : 'an unborn branch (no commits yet)';
}

function lastSessionInfo(
  options: ExecuteCheckpointOptions,
  repo: Extract<GitSnapshot, { kind: 'repo' }> | undefined,
  handoff: WrittenHandoff,
  userFiles: readonly ChangedFile[],
): LastSessionInfo {
  const clock = clockParts(options.now, options.timeZone);
  const data = options.handoff;
  const failing = (data.failures ?? []).map((f) =>
    f.command !== undefined ? `${firstLine(f.command, 100)}${f.exitCode !== undefined ? ` (exit ${f.exitCode})` : ''}` : f.text,
  );
  const lastMessage = data.timeline?.lastAssistantMessage;
  const next =
    data.nextSteps?.[0] ??
    (lastMessage !== undefined && lastMessage.trim() !== '' ? firstLine(lastMessage, 300) : undefined) ??
    (data.planFile !== undefined ? `Continue the plan in ${data.planFile}` : undefined);
  return {
    when: `${clock.date} ${clock.time} ${clock.timeZone}`,
    trigger: triggerLabel(data.trigger),
    branch: repo ? (repo.branch ?? (repo.head !== undefined ? `(detached at ${repo.head.slice(0, 7)})` : '(no commits yet)')) : '(not a git repository)',
    handoff: handoff.relativePath,
    handoffIsLocal: isInAgentCheckpointDir(handoff.relativePath),
    filesInProgress: userFiles.map((f) => f.path),
    failing,
    ...(next !== undefined ? { next } : {}),
  };
}

/** Rewrites the memory file; `restore` puts the original bytes back (or removes a created file). */
async function updateMemoryFile(
  memory: MemoryFileLocation,
  body: readonly string[],
): Promise<{ readonly restore: () => Promise<void> } | { readonly error: string }> {
  let original: Buffer | undefined;
  if (memory.exists) {
    try {
      // The turn end's read: a FIFO swapped in since resolveMemoryFile never blocks, /dev/zero is refused.
      original = readRegularFileBytesSync(memory.realPath, MAX_MEMORY_FILE_BYTES)?.bytes;
      if (original === undefined) return { error: `${memory.repoPath} vanished while being read` };
    } catch (error) {
      return { error: `cannot read ${memory.repoPath}: ${errorMessage(error)}` };
    }
  }
  let next: string;
  if (original !== undefined) {
    const text = original.toString('utf8');
    // Editing text that does not round-trip would change bytes outside the section.
    if (!Buffer.from(text, 'utf8').equals(original)) return { error: `${memory.repoPath} is not valid UTF-8; left untouched` };
    next = replaceLastSessionSection(text, body);
  } else {
    next = newMemoryFileText(basename(memory.configuredPath), body);
  }
  try {
    // Temp file + rename under the repository, never through a link, an existing file's mode and owner
    // kept (see fs-safe); a symlinked memory file was resolved to its target inside the repository.
    writeFileSafelySync(memory.root, memory.repoPath, next, { dirMode: 0o755 });
  } catch (error) {
    return { error: `cannot write ${memory.repoPath}: ${errorMessage(error)}` };
  }
  const written = Buffer.from(next, 'utf8');
  return {
    restore: async () => {
      // Only undo our own write: if someone changed the file since, leave theirs.
      const current = readOrUndefined(memory.realPath);
      if (current === undefined || !current.equals(written)) return;
      if (original !== undefined) writeFileSafelySync(memory.root, memory.repoPath, original, { dirMode: 0o755 });
      else await unlink(memory.realPath);
    },
  };
}

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readRegularFileBytesSync(path, MAX_MEMORY_FILE_BYTES)?.bytes;
  } catch {
    return undefined;
  }
}

/** Operations during which a commit would interfere (files in the git directory that mark them). */
const IN_PROGRESS: readonly (readonly [string, string])[] = [
  ['MERGE_HEAD', 'merge'],
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase or am'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['REVERT_HEAD', 'revert'],
  ['BISECT_LOG', 'bisect'],
];

async function commitCheckpoint(
  ctx: GitContext,
  cfg: ResolvedDirectExecutionConfig,
  repo: Extract<GitSnapshot, { kind: 'repo' }>,
  memory: MemoryFileLocation,
  userFiles: readonly ChangedFile[],
  options: ExecuteCheckpointOptions,
  handoff: WrittenHandoff,
  record: RecordFn,
): Promise<{ readonly commit?: CheckpointCommit } | { readonly error: string; readonly undoIntent: boolean }> {
  const gitDir = await gitStep(['rev-parse', '--absolute-git-dir'], ctx);
  if (!gitDir.ok) {
    record('commit', 'failed', `git rev-parse failed: ${gitDir.message}`);
    return { error: `git rev-parse failed: ${gitDir.message}`, undoIntent: false };
  }
  for (const [marker, operation] of IN_PROGRESS) {
    if (await exists(join(gitDir.stdout.trim(), marker))) {
      record('commit', 'skipped', `a ${operation} is in progress: no commit in the middle of it`);
      return {};
    }
  }
  if (repo.branch === undefined && repo.head !== undefined) {
    record('commit', 'warning', `HEAD is detached at ${repo.head.slice(0, 7)}: the WIP commit will not be on any branch`);
  }

  const paths: string[] = [];
  // check-ignore rejects `--literal-pathspecs` (it takes plain paths anyway). Exit 0: ignored; 1: not.
  const ignored = await gitStep(['check-ignore', '-q', '--', memory.repoPath], ctx);
  if (ignored.ok) record('commit', 'warning', `${memory.repoPath} is git-ignored: it is updated but not committed`);
  else {
    if (ignored.code !== 1) record('commit', 'warning', `git check-ignore failed (${ignored.message}); committing ${memory.repoPath}`);
    paths.push(memory.repoPath);
  }
  if (cfg.includeTrackedChanges) {
    for (const f of userFiles) {
      if (f.status === 'untracked' || f.status === 'unmerged') continue;
      paths.push(f.path);
      if (f.fromPath !== undefined) paths.push(f.fromPath);
    }
  }
  const unique = [...new Set(paths)];
  if (unique.length === 0) {
    record('commit', 'skipped', 'nothing to commit');
    return {};
  }

  // `commit --only` needs every path known to the index: a new memory file is added as intent-to-add.
  let undoIntent = false;
  if (unique.includes(memory.repoPath)) {
    const tracked = await gitStep(['--literal-pathspecs', 'ls-files', '-z', '--', memory.repoPath], ctx);
    if (!tracked.ok) {
      record('commit', 'failed', `git ls-files failed: ${tracked.message}`);
      return { error: `git ls-files failed: ${tracked.message}`, undoIntent: false };
    }
    if (tracked.stdout === '') {
      const intent = await gitStep(['--literal-pathspecs', 'add', '--intent-to-add', '--', memory.repoPath], ctx);
      if (!intent.ok) {
        record('commit', 'failed', `git add --intent-to-add failed: ${intent.message}`);
        return { error: `git add --intent-to-add ${memory.repoPath} failed: ${intent.message}`, undoIntent: false };
      }
      undoIntent = true;
    }
  }

  const pending = await gitStep(['--literal-pathspecs', 'status', '--porcelain', '-z', '--untracked-files=no', '--', ...unique], ctx);
  if (pending.ok && pending.stdout === '') {
    record('commit', 'skipped', 'the paths to commit do not differ from HEAD');
    return {};
  }

  const message = renderCommitMessage(cfg.commitMessage, options, repo, handoff);
  let tmp: string | undefined;
  try {
    tmp = await mkdtemp(join(tmpdir(), 'agent-checkpoint-msg-'));
    const messageFile = join(tmp, 'COMMIT_EDITMSG');
    await writeFile(messageFile, message, 'utf8');
    const args = ['--literal-pathspecs', 'commit', '--quiet', ...(cfg.noVerify ? ['--no-verify'] : []), '--file', messageFile, '--only', '--', ...unique];
    const committed = await gitStep(args, ctx);
    if (!committed.ok) {
      record('commit', 'failed', `git commit failed: ${committed.message}`);
      return { error: `git commit failed: ${committed.message}`, undoIntent };
    }
  } catch (error) {
    record('commit', 'failed', `cannot write the commit message: ${errorMessage(error)}`);
    return { error: `cannot write the commit message: ${errorMessage(error)}`, undoIntent };
  } finally {
    if (tmp !== undefined) await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
  const head = await gitStep(['rev-parse', 'HEAD'], ctx);
  const sha = head.stdout.trim();
  record('commit', 'ok', `created ${sha.slice(0, 7)} (${unique.length} path${unique.length === 1 ? '' : 's'}: ${unique.slice(0, 5).join(', ')}${unique.length > 5 ? ', …' : ''})`);
  return { commit: { sha, paths: unique } };
}

/**
 * The `Co-Authored-By` trailer of a WIP commit (seed 003: "Includes Co-Authored-By tag"): the agent
 * whose session's work it is, with the address its own CLI puts in its commits — Claude Code's
 * `noreply@anthropic.com` (its attribution reminder, `shared/agents/samples/claude/*.jsonl`; the model
 * name is left out) and Copilot CLI's (its system prompt's trailer). Gemini CLI and Codex publish no attribution identity, so none is invented for them.
 * A template that already has a Co-Authored-By line keeps its own.
 */
const CO_AUTHOR: Readonly<Record<AgentId, string | undefined>> = {
  claude: 'Claude <noreply@anthropic.com>',
  gemini: undefined,
  codex: undefined,
  // The trailer Copilot CLI 1.0.102's system prompt tells its model to add to every commit.
  copilot: 'Copilot <223556219+Copilot@users.noreply.github.com>',
  // The co-author Qwen Code 0.24.4 adds to the commits it makes (its fixed gitCoAuthor name and email).
  qwen: 'Qwen-Coder <qwen-coder@alibabacloud.com>',
  // Pi 0.73.1 adds no trailer of its own.
  pi: undefined,
};

function renderCommitMessage(template: string, options: ExecuteCheckpointOptions, repo: Extract<GitSnapshot, { kind: 'repo' }>, handoff: WrittenHandoff): string {
  const values: { [key: string]: string } = {
    trigger: triggerLabel(options.handoff.trigger),
    agent: options.agent,
    handoff: handoff.relativePath,
    branch: repo.branch ?? 'HEAD',
    iteration: options.loopIteration === undefined ? '' : String(options.loopIteration),
    issue: options.issueId ?? '',
  };
  // No issue id: "[WIP] {issue} - checkpoint" reads "[WIP] checkpoint", not "[WIP]  - checkpoint".
  const shaped = options.issueId === undefined ? template.replace(/\{issue\}(?:[ \t]*[-:][ \t]*)?/g, '') : template;
  const text = shaped.replace(/\{(trigger|agent|handoff|branch|iteration|issue)\}/g, (_, key: string) => values[key] ?? '');
  const body = text.endsWith('\n') ? text : `${text}\n`;
  const coAuthor = CO_AUTHOR[options.agent];
  const trailers = [
    ...(options.loopIteration !== undefined ? [`Loop-Iteration: ${options.loopIteration}`] : []),
    ...(coAuthor !== undefined && !/^co-authored-by:/im.test(body) ? [`Co-Authored-By: ${coAuthor}`] : []),
  ];
  if (trailers.length === 0) return body;
  // The subject says the iteration (unless the template placed it); the trailers go after a blank line
  // (git's `Key: value` shape) for `git log --format=%(trailers)`.
  const [subject = '', ...rest] = body.replace(/\n+$/, '').split('\n');
  const titled = options.loopIteration === undefined || template.includes('{iteration}') ? subject : `${subject} (loop iteration ${options.loopIteration})`;
  return `${[titled, ...rest].join('\n')}\n\n${trailers.join('\n')}\n`;
}

async function pushCheckpoint(
  ctx: GitContext,
  profile: DirectGitProfile,
  cfg: ResolvedDirectExecutionConfig,
  repo: Extract<GitSnapshot, { kind: 'repo' }>,
  record: RecordFn,
  deadlineAt: number | undefined,
): Promise<NonNullable<ExecuteCheckpointResult['push']>> {
  if (repo.branch === undefined) {
    const message = 'HEAD is detached: not pushing';
    record('push', 'skipped', message);
    return { status: 'skipped', message };
  }
  const remotes = await gitStep(['remote'], ctx);
  if (!remotes.ok || !remotes.stdout.split('\n').map((l) => l.trim()).includes(cfg.remote)) {
    const message = remotes.ok ? `no remote "${cfg.remote}"` : `git remote failed: ${remotes.message}`;
    record('push', 'skipped', message);
    return { status: 'skipped', message };
  }
  // The push URL (after the `insteadOf` rewrites git applies) decides whether receive-pack runs here;
  // unknown (get-url failed), it is treated as local: hooks off, at worst a server refuses the push.
  const url = await gitStep(['remote', 'get-url', '--push', '--', cfg.remote], ctx);
  const receivePack = profile.receivePack(cfg.remote, url.ok ? url.stdout.replace(/\n$/, '') : undefined);
  const refspec = `HEAD:refs/heads/${repo.branch}`;
  const args = ['push', '--quiet', receivePack, ...(cfg.noVerify ? ['--no-verify'] : []), cfg.remote, refspec];
  // Transient failures (network, 5xx) are retried with backoff inside the hook's deadline; a refused
  // login or a rejected update is final (seed 003, "Retry Logic").
  const pushed = await pushWithRetry((timeoutMs) => gitStep(args, { ...ctx, timeoutMs }), {
    retries: cfg.pushRetries,
    timeoutMs: ctx.timeoutMs,
    ...(deadlineAt !== undefined ? { deadlineAt } : {}),
    ...(ctx.signal !== undefined ? { signal: ctx.signal } : {}),
    onRetry: (attempt, kind, waitMs, previous) => record('push', 'warning', `attempt ${attempt - 1} failed (${kind}: ${previous.message}); retrying in ${waitMs} ms`),
  });
  const attempts = pushed.attempts;
  if (!pushed.outcome.ok) {
    const why = pushed.gaveUp === 'deadline' ? '; no time left before the hook\'s deadline for another try' : pushed.gaveUp === 'aborted' ? '; the hook\'s budget ran out while waiting to retry' : '';
    const tries = attempts === 1 ? '' : ` after ${attempts} attempts`;
    const message = `git push ${cfg.remote} ${refspec} failed${tries} (the local commit stands): ${pushed.outcome.message}${pushed.kind !== undefined && pushed.kind !== 'transient' ? ` [${pushed.kind}: not retried]` : ''}${why}`;
    record('push', 'failed', message);
    return { status: 'failed', message, attempts };
  }
  const message = `pushed to ${cfg.remote} ${repo.branch}${attempts === 1 ? '' : ` (attempt ${attempts})`}`;
  record('push', 'ok', message);
  return { status: 'pushed', message, attempts };
}

async function rollback(restore: () => Promise<void>, undoIntent: boolean, ctx: GitContext, memory: MemoryFileLocation, record: RecordFn): Promise<void> {
  try {
    await restore();
    record('rollback', 'ok', `restored ${memory.repoPath}`);
  } catch (error) {
    record('rollback', 'failed', `cannot restore ${memory.repoPath}: ${errorMessage(error)}`);
  }
  if (undoIntent) {
    const undo = await gitStep(['--literal-pathspecs', 'rm', '--cached', '--quiet', '--ignore-unmatch', '--', memory.repoPath], ctx);
    record('rollback', undo.ok ? 'ok' : 'failed', undo.ok ? `removed the intent-to-add entry of ${memory.repoPath}` : `git rm --cached failed: ${undo.message}`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
