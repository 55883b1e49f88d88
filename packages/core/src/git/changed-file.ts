import type { StartSecondCommit } from './settle-start-second-commits.ts';

/**
 * How a file differs from HEAD (or, in a repository without commits, from nothing).
 * `renamed`/`copied` carry the old path in {@link ChangedFile.fromPath}.
 */
export type ChangeStatus =
  | 'modified'
  | 'added'
  | 'deleted'
  | 'renamed'
  | 'copied'
  | 'type-changed'
  | 'unmerged'
  | 'untracked';

/** One file that changed, as git reports it. */
export interface ChangedFile {
  /**
   * Repo-relative POSIX path (relative to the repository top level), exactly as git prints it. A name
   * whose bytes are not valid UTF-8 is decoded with U+FFFD for the invalid bytes, which is also how the
   * agents' JSON transcripts show it; `mtimeMs` is still read from the raw bytes.
   */
  readonly path: string;
  readonly status: ChangeStatus;
  /** The previous path of a rename or copy. */
  readonly fromPath?: string;
  /**
   * Where the change lives: `worktree` (uncommitted: staged, unstaged or untracked) or `committed`
   * (in a commit made since the turn started).
   */
  readonly source: 'worktree' | 'committed';
  /** File modification time in ms since the epoch (undefined for deleted files). */
  readonly mtimeMs?: number;
  /**
   * Set on a `committed` file when every commit that brings it was made in the very second the turn
   * started and nothing on disk tells whether before or after the prompt (it is packed into a pack
   * written since, the file system keeps whole seconds…). Attribution then counts it only if the turn
   * could have made a commit (docs/turn-attribution.md). Commits proven older are not listed at all.
   */
  readonly uncertainCommit?: true;
}

/**
 * The file axis. A directory that is not a git repository is a normal state (`not-a-repo`), not an
 * error; `error` means git itself failed or timed out.
 */
export type GitSnapshot =
  | {
      readonly kind: 'repo';
      /** Absolute path of the repository top level (the worktree root for linked worktrees). */
      readonly root: string;
      /** HEAD commit, undefined in a repository without commits. */
      readonly head?: string;
      /** Current branch, undefined when detached or unborn. */
      readonly branch?: string;
      readonly files: readonly ChangedFile[];
      /**
       * Commits whose committer time (1 s resolution) is the second the turn started, each with its
       * verdict and the evidence for it (for `explain`). Absent when there is none: the common case.
       */
      readonly startSecondCommits?: readonly StartSecondCommit[];
      /**
       * Non-fatal problems while reading (e.g. the committed-during-turn `git log` failed or timed
       * out, so only uncommitted files are listed).
       */
      readonly diagnostics?: readonly string[];
    }
  | { readonly kind: 'not-a-repo' }
  | { readonly kind: 'error'; readonly message: string };
