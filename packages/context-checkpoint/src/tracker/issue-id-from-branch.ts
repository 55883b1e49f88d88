import { runGit } from '@agent-checkpoint/core';
import { compileIssuePattern, DEFAULT_ISSUE_PATTERN } from './tracker-settings.ts';

/** Longest branch name looked at: git allows more, but an issue id sits near the start. */
const MAX_BRANCH_CHARS = 255;

/**
 * The issue id in a branch name (`feature/ANV-123-login` → `ANV-123`), or undefined. `pattern` is a
 * regular-expression source (config `tracker.issuePattern`); an invalid one finds nothing. The input is
 * capped so a configured pattern cannot be made to backtrack over a huge string.
 */
export function issueIdFromBranch(branch: string, pattern: string = DEFAULT_ISSUE_PATTERN): string | undefined {
  const regex = compileIssuePattern(pattern);
  if (regex === undefined) return undefined;
  const match = regex.exec(branch.slice(0, MAX_BRANCH_CHARS));
  const id = match?.[0];
  return id !== undefined && id !== '' ? id : undefined;
}

/** Options of {@link readBranchIssueId}. */
export interface ReadBranchIssueIdOptions {
  readonly cwd: string;
  readonly pattern?: string;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Read the current branch with core's `runGit` (read profile: nothing the repository configures runs)
 * and find the issue id in it. Detached HEAD, no repository, a git failure or no match: undefined.
 */
export async function readBranchIssueId(options: ReadBranchIssueIdOptions): Promise<string | undefined> {
  const result = await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs ?? 2_000,
    maxOutputBytes: 4096,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  if (result.kind !== 'exited' || result.code !== 0) return undefined;
  return issueIdFromBranch(result.stdout.toString('utf8').trim(), options.pattern);
}
