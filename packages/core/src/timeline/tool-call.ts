import type { TaskListItem } from './task-list.ts';

/**
 * The unified vocabulary of tool calls. Every transcript adapter maps its agent's native tool names
 * onto these kinds and keeps the native name in {@link ToolCallBase.rawName}. Core decides on kinds
 * only: it never matches a native name, so an agent's tool becomes known to the heuristics by the
 * kind its reader gives it.
 *
 * - `read`: reads file content (Claude `Read`, Gemini `read_file`, `read_many_files`, Codex
 *   `view_image`: an image is a local file too).
 * - `edit`: changes part of an existing file (Claude `Edit`/`MultiEdit`/`NotebookEdit`, Gemini `replace`).
 * - `write`: writes a whole file, creating or overwriting it (Claude `Write`, Gemini `write_file`).
 * - `shell`: runs a shell command (Claude `Bash` and, on Windows, `PowerShell`; Gemini `run_shell_command`;
 *   Codex `exec_command`/`shell`). {@link ShellToolCall.dialect} says when the command is PowerShell.
 * - `patch`: applies a multi-file patch (Codex `apply_patch`).
 * - `search`: finds files or text without reading whole files (Claude `Grep`/`Glob`/`LSP`, Gemini `glob`/`grep_search`).
 * - `web`: searches or fetches the web for the model (Claude `WebSearch`/`WebFetch`, Gemini
 *   `google_web_search`/`web_fetch`, Codex `web_search`), and any tool the model provider runs on its
 *   own side (Claude `server_tool_use` blocks: `web_search`, `web_fetch`, code execution in the
 *   provider's sandbox). It reads and writes no local file and runs no local program, so it is never a
 *   file mutation, never evidence and cannot commit. A URL of a local server is still `web`: what that
 *   server does is not the turn's doing.
 * - `plan`: bookkeeping of the conversation itself: todo and task lists and plan updates (Claude
 *   `TodoWrite`, `TaskCreate`/`TaskUpdate`/`TaskList`/`TaskGet`, Gemini `write_todos`, Codex
 *   `update_plan`), entering or leaving plan mode, asking the user a question (Claude
 *   `AskUserQuestion`, Codex `request_user_input`), scheduling a later prompt of the session (Claude
 *   `CronCreate`, `ScheduleWakeup`), loading tool definitions (Claude `ToolSearch`), consulting
 *   another model (the `advisor` server tool). It touches no file and runs
 *   nothing; the user's answer is its result. A plan the agent saves to a file is a separate `write`,
 *   and a tool that persists "memory" to disk (Gemini `save_memory`) is not `plan` but `other`.
 * - `other`: anything else, and every tool a reader does not know: MCP tools, subagent launchers
 *   and workflows (Claude `Agent`/`Task`/`Workflow`), background-process helpers (`TaskOutput`,
 *   `TaskStop`, `Monitor`), worktree switches… Heuristics stay conservative about it: such a call may
 *   have done anything, including a commit.
 */
export type ToolKind = 'read' | 'edit' | 'write' | 'shell' | 'patch' | 'search' | 'web' | 'plan' | 'other';

/** All kinds, in a stable order. */
export const TOOL_KINDS: readonly ToolKind[] = ['read', 'edit', 'write', 'shell', 'patch', 'search', 'web', 'plan', 'other'];

/**
 * How a tool call ended, as far as the transcript tells.
 *
 * - `success`: a result was recorded and it did not signal failure.
 * - `error`: the tool reported failure (Claude `is_error`, Gemini `status:"error"` or a non-zero
 *   `Exit Code:` line, Codex `exit_code != 0` / failed status), or the call was rejected.
 * - `pending`: no result was found. The call may still be running (background command), may have been
 *   interrupted, or its result may not be flushed yet. Heuristics treat pending calls as neither
 *   evidence nor errors.
 * - `unknown`: the call ran to its end, but the transcript does not record how it ended. A command
 *   that an older Codex code-mode cell ran (0.144–0.147 write only the cell's script and its
 *   `Script completed` output, no exit code). It carries no exit code. Heuristics count it as an
 *   **attempt**, never as a pass or a failure: it satisfies a category whose action has its own
 *   `verify` step (a restart was attempted; the verify step, which must succeed, proves it worked),
 *   it never satisfies plain evidence or a follow-up (it does not prove the tests passed), and it is
 *   never an error (see docs/heuristics.md, "Unknown outcomes").
 */
export type ToolOutcome = 'success' | 'error' | 'pending' | 'unknown';

/** All outcomes, in a stable order. */
export const TOOL_OUTCOMES: readonly ToolOutcome[] = ['success', 'error', 'pending', 'unknown'];

/**
 * A bounded excerpt of a tool's output. Errors usually print at the end of long outputs (test runners,
 * compilers), so the excerpt keeps both ends and drops the middle.
 */
export interface OutputExcerpt {
  /**
   * The first part of the output. When the whole output fits in the head and tail budgets together it
   * is kept entirely here (and `tail` is empty); otherwise at most the head budget.
   */
  readonly head: string;
  /**
   * The last part of the output, empty when the whole output fits in `head`. Never overlaps `head`.
   */
  readonly tail: string;
  /** Length in UTF-16 code units of the full output, as recorded in the transcript. */
  readonly totalLength: number;
  /** True when characters between `head` and `tail` were dropped. */
  readonly truncated: boolean;
}

/** Fields every tool call carries, whatever its kind. */
export interface ToolCallBase {
  /**
   * The agent's own id for the call (Claude `tool_use.id`, Codex `call_id`, Gemini `toolCalls[].id`).
   * Results are paired to calls by this id, never by position. Unique within a timeline.
   */
  readonly id: string;
  /** The agent's native tool name, unchanged (`Bash`, `run_shell_command`, `exec_command`…). */
  readonly rawName: string;
  /** The tool input as recorded, unvalidated. Useful for `explain`, never interpreted by a shell. */
  readonly input: Readonly<Record<string, unknown>>;
  /**
   * File paths the call names, exactly as the agent wrote them (absolute, or relative to the session
   * cwd). Read/edit/write give their target; patch gives every file in the patch (moves give both
   * sides); shell gives nothing here: core derives paths from the command text itself.
   */
  readonly paths: readonly string[];
  /** How the call ended. */
  readonly outcome: ToolOutcome;
  /** Bounded output excerpt, or undefined when no output was recorded. */
  readonly output?: OutputExcerpt;
  /** ISO-8601 time of the call (or of its result when the call has none). */
  readonly timestamp?: string;
  /**
   * Who made the call. Undefined means the main agent of the session. A subagent's calls (Claude's
   * Task/Agent tool, which records them in a transcript of its own) belong to the turn that spawned,
   * continued or was notified by the subagent: they count for evidence, errors and attribution like
   * the main agent's, and `explain` marks them.
   */
  readonly origin?: ToolCallOrigin;
  /**
   * For a `plan` call that sets the agent's whole task list (Claude `TodoWrite`, Gemini
   * `write_todos`, Codex `update_plan`): that list, normalised by the reader (`taskListFrom`).
   * Undefined for every other call, and for planning calls that change one task at a time.
   */
  readonly taskList?: readonly TaskListItem[];
}

/**
 * Where a call that is not the main agent's came from. Discriminated on `kind` so that other
 * origins (e.g. a hook's own commands) can be added with an exhaustive switch.
 *
 * - `subagent`: the call ran inside a subagent of the session.
 *   - `agentId`: the agent's id for the subagent (Claude `agentId`, the `agent-<id>.jsonl` file name).
 *   - `agentType`: the subagent type when recorded (`general-purpose`, `Explore`…).
 *   - `parentCallId`: the main-agent call that spawned or continued it (the Agent/Task/SendMessage
 *     `tool_use` id) when it is in the turn; undefined when the turn was opened by the subagent's
 *     completion notice, or for a subagent spawned by another subagent whose call is not in the turn.
 */
export type ToolCallOrigin = {
  readonly kind: 'subagent';
  readonly agentId: string;
  readonly agentType?: string;
  readonly parentCallId?: string;
};

/** A shell command. */
export interface ShellToolCall extends ToolCallBase {
  readonly kind: 'shell';
  /**
   * The command text as the shell would receive it. Argv-form commands (Codex `["bash","-lc","…"]`)
   * are reduced to the script when they are a shell `-c`/`-lc` wrapper, otherwise joined with quoting.
   */
  readonly command: string;
  /** Exit code when the transcript records one (Codex `exit_code`, Gemini `Exit Code: N`, Claude `Exit code N`). */
  readonly exitCode?: number;
  /**
   * The language of {@link command}: absent for POSIX shells (bash, zsh, Git Bash), `powershell`
   * for a PowerShell tool (Claude Code's `PowerShell` on Windows) or a `powershell -Command`
   * wrapper. Core lexes the command with that language's quoting (a backslash is a path separator
   * in PowerShell, not an escape).
   */
  readonly dialect?: 'powershell';
}

/** A read, edit, write, patch, search, web, plan or other call: no command text. */
export interface FileToolCall extends ToolCallBase {
  readonly kind: Exclude<ToolKind, 'shell'>;
}

/** One tool call of a turn. Discriminated on `kind`. */
export type ToolCall = ShellToolCall | FileToolCall;

/** True for calls that change files by themselves (edit, write, patch). Shell mutations are detected from the command. */
export function isFileMutation(call: ToolCall): boolean {
  const kind = call.kind;
  switch (kind) {
    case 'edit':
    case 'write':
    case 'patch':
      return true;
    case 'read':
    case 'shell':
    case 'search':
    case 'web':
    case 'plan':
    case 'other':
      return false;
    default:
      return assertNever(kind);
  }
}

/** Exhaustiveness guard for switches over unions. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
