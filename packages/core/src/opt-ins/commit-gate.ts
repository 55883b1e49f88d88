import type { ResolvedCommitGateConfig, ResolvedConfig } from '../config/config-schema.ts';
import { globMatcher } from '../engine/glob-match.ts';
import type { GitSnapshot } from '../git/changed-file.ts';
import { readGitSnapshot } from '../git/read-git-snapshot.ts';

import { COMMIT_GATE_TEXT } from './commit-gate-text.ts';

export { COMMIT_GATE_TEXT };

/** Most file names listed after `Changed:`. */
const MAX_LISTED = 10;

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
 * The gate's message: the prefix, seed 001's sentence, a blank line, and `Changed:` with the files
 * (the first ten, then "and N more").
 */
export function composeCommitGateMessage(files: readonly string[], prefix: string): string {
  const shown = files.slice(0, MAX_LISTED).map((f) => `\`${f}\``);
  const more = files.length > MAX_LISTED ? ` and ${files.length - MAX_LISTED} more` : '';
  return `${prefix}${COMMIT_GATE_TEXT}\n\nChanged: ${shown.join(', ')}${more}`;
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
