import type { AgentId, GitSnapshot, LineRange, TurnTimeline } from '@agent-checkpoint/core';
import type { KnownContextReading } from '../context/read-context-level.ts';
import type { TrackerIssue } from '../tracker/issue-tracker.ts';

/**
 * Why a handoff is written.
 * - `context`: a context level was reached (the usual case: L2);
 * - `pre-compact`: the agent is about to compact its context (Claude/Codex `PreCompact` hook);
 * - `manual`: someone asked for it (`reason` is shown as is).
 */
export type HandoffTrigger =
  | { readonly kind: 'context'; readonly reading: KnownContextReading }
  | { readonly kind: 'pre-compact'; readonly auto?: boolean; readonly reading?: KnownContextReading }
  | { readonly kind: 'manual'; readonly reason?: string; readonly reading?: KnownContextReading };

/**
 * An unresolved failure to list under "Failing Commands". Plain data: error detection is the
 * heuristic engine's (see {@link failuresFromObservations}), the handoff only shows its result.
 */
export interface HandoffFailure {
  /** One sentence: what looks wrong (the observation text). */
  readonly text: string;
  /** The command (shell) or tool call (`Edit src/a.ts`) that failed, when known. */
  readonly command?: string;
  readonly exitCode?: number;
  /** The last lines of the failed call's output, when recorded. */
  readonly outputTail?: string;
}

/** Everything a handoff document is rendered from. All optional parts degrade to a short "none" line. */
export interface HandoffData {
  readonly agent: AgentId;
  /** Absolute project root: tool-call paths are shown relative to it (the repository root when in git). */
  readonly projectRoot: string;
  readonly sessionId?: string;
  readonly trigger: HandoffTrigger;
  /** The turn that just ended (what was done, the prompt, the last assistant message). */
  readonly timeline?: TurnTimeline;
  /** Branch, HEAD and uncommitted files. */
  readonly git?: GitSnapshot;
  readonly failures?: readonly HandoffFailure[];
  /** Repo-relative plan file (e.g. `handoff.planFile`), named under Next Steps and Context To Reload. */
  readonly planFile?: string;
  /**
   * Repo-relative agent memory files that exist (CLAUDE.md, AGENTS.md, GEMINI.md), listed under Context
   * To Reload. `writeHandoff` fills it from disk when undefined.
   */
  readonly memoryFiles?: readonly string[];
  /**
   * The plan file's open items (HND-004), listed under Next Steps; `writeHandoff` reads them from
   * `planFile` when undefined. `total` counts every open item (only the first 20 are listed).
   */
  readonly planItems?: { readonly items: readonly string[]; readonly total: number };
  /**
   * Decisions of this session (HND-006): `Decision: …` lines, "We decided …", a `## Decisions` list
   * in the prompt or the agent's last message, and what the turn shows was decided (tasks cancelled,
   * dependencies changed, files deleted or renamed). `writeHandoff` derives them when undefined
   * (`deriveDecisions`). Rendered as "Decisions This Session" only when there are some.
   */
  readonly decisions?: readonly string[];
  /** The memory files' headings to reload (HND-006); `writeHandoff` reads them when undefined. */
  readonly memorySections?: readonly { readonly file: string; readonly headings: readonly string[] }[];
  /**
   * Next steps, shown before the plan's items and the agent's last message. `writeHandoff` derives
   * them from the turn when undefined (HND-004 without a plan file: `deriveNextSteps`).
   */
  readonly nextSteps?: readonly string[];
  /**
   * The uncommitted files with the line ranges of their changes (seed 004 "Resume From": file and
   * lines); `writeHandoff` reads the ranges from git when undefined.
   */
  readonly filesInProgress?: readonly FileInProgress[];
  /**
   * The current item and progress (n of m done): from the plan in scope, else the agent's task list;
   * `writeHandoff` reads them when undefined.
   */
  readonly progress?: WorkProgress;
  /**
   * The tracker issue of this session (the branch's `ANV-123`, LIN-001/HND-003): front matter
   * `linear_issues: [ANV-123]` and a "Linear Issue" section, with its state when it was fetched.
   */
  readonly trackerIssue?: { readonly id: string; readonly issue?: TrackerIssue };
  /** Title after "Session Handoff:"; default the first line of the prompt, else the branch. */
  readonly title?: string;
}

/** A rendered handoff: the file name stem and the Markdown. */
export interface RenderedHandoff {
  /** `YYYY-MM-DD-HHMM` in the chosen time zone. */
  readonly stem: string;
  readonly markdown: string;
}

/** One uncommitted file and the line ranges of its changes (none: untracked, binary, or unknown). */
export interface FileInProgress {
  readonly path: string;
  readonly ranges?: readonly LineRange[];
}

/**
 * Where the work stands: the current item and how many of the items are done (seed 004 Ralph
 * `current_todo_item`, progress "n of m"). From the plan (its current shard once sharded) when one is
 * configured and has items, else from the agent's task list.
 */
export interface WorkProgress {
  readonly source: 'plan' | 'task-list';
  /** The item being worked on: the task in progress, else the first not done. Undefined when all are done. */
  readonly current?: string;
  /** With `source: 'plan'`: the file and 1-based line of the current item. */
  readonly file?: string;
  readonly line?: number;
  readonly done: number;
  /** Items counted (a task list's cancelled tasks are not). */
  readonly total: number;
}
