import { COMMIT_GATE_TEXT, composeCommitGateMessage, type GitSnapshot, globMatcher, readGitSnapshot, type ResolvedConfig } from '@agent-checkpoint/core';
import type { ResolvedCommitGateConfig } from '../config/context-config.ts';


// The text lives in core: transcript readers recognise a delivered gate message as ours.
export { COMMIT_GATE_TEXT, composeCommitGateMessage };

/** Result of {@link checkCommitGate}. */
export interface CommitGateCheck {
  /** Gated files with uncommitted changes (repo-relative), sorted. Empty: the stop may pass. */
  readonly files: readonly string[];
  /** The block reason when `files` is not empty. */
  readonly message?: string;
  readonly diagnostics: readonly string[];
}

/**
 * The uncommitted files the gate cares about: every worktree change (staged, unstaged, untracked,
 * deleted) whose path matches `commitGate.when`, or, without `when`, every file that is not
 * documentation (`docsPatterns`), like seed 001's "only non-gated files like docs/ideas/todos pass".
 */
export function gatedUncommittedFiles(
  snapshot: GitSnapshot,
  gate: ResolvedCommitGateConfig,
  config: Pick<ResolvedConfig, 'docsPatterns'>,
): string[] {
  if (snapshot.kind !== 'repo') return [];
  const matches = gate.when !== undefined ? globMatcher(gate.when) : negate(globMatcher(config.docsPatterns));
  const paths = snapshot.files.filter((f) => f.source === 'worktree').map((f) => f.path);
  return [...new Set(paths.filter(matches))].sort();
}


/**
 * Read `git status` once and decide the commit gate for `cwd`. Never throws: git failures (not a
 * repository, timeout, missing git) give no files and a diagnostic, so the stop passes.
 */
export async function checkCommitGate(options: {
  readonly cwd: string;
  readonly config: Pick<ResolvedConfig, 'docsPatterns' | 'gitTimeoutMs' | 'messages'>;
  readonly gate: ResolvedCommitGateConfig;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
}): Promise<CommitGateCheck> {
  const snapshot = await readGitSnapshot(options.cwd, {
    timeoutMs: options.config.gitTimeoutMs,
    ...(options.env ? { env: options.env } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (snapshot.kind === 'error') return { files: [], diagnostics: [`commit gate: git failed (${snapshot.message}); letting the stop pass`] };
  if (snapshot.kind === 'not-a-repo') return { files: [], diagnostics: ['commit gate: not a git repository'] };
  const files = gatedUncommittedFiles(snapshot, options.gate, options.config);
  if (files.length === 0) return { files, diagnostics: [] };
  return { files, message: composeCommitGateMessage(files, options.config.messages.prefix), diagnostics: [] };
}

function negate(fn: (path: string) => boolean): (path: string) => boolean {
  return (path) => !fn(path);
}
