import { makeOutputExcerpt, taskListFrom, type TimelineDiagnostic, type ToolCall, type ToolKind, type ToolOutcome } from '@agent-checkpoint/core';
import { mapClaudeToolName } from './map-claude-tool-name.ts';
import type { ClaudeToolResult, ClaudeToolUse } from './parse-claude-entry.ts';

/** Excerpt budget (characters) for tool outputs. */
export interface ExcerptBudget {
  readonly head?: number;
  readonly tail?: number;
}

/**
 * Input keys that name the file a read/edit/write call targets (`NotebookEdit` uses
 * `notebook_path`; `path` is accepted for tools that name their target that way).
 *
 * Only read, edit and write calls get `paths`. The `path` of `Grep`/`Glob`/`LS` is a search *root*
 * (usually a directory): listing it would let consumers mistake "searched under src/" for "touched
 * src/", and the Gemini and Codex readers give search calls no paths either, so the same scenario
 * yields the same timeline on every agent. The root stays visible in `input`.
 */
const PATH_KEYS: readonly string[] = ['file_path', 'notebook_path', 'path'];
const KINDS_WITH_PATHS: ReadonlySet<ToolKind> = new Set<ToolKind>(['read', 'edit', 'write']);

/** Opening tag of a tool output Claude persisted to disk (2.1.x, outputs over ~30–50K characters). */
const PERSISTED_OUTPUT_OPEN = '<persisted-output>';
const PERSISTED_PREVIEW_HEADER = /\nPreview \(first [^)\n]*\):\n/;
const EXIT_CODE_LINE = /^Exit code (-?\d+)[ \t]*(?:\r?\n|$)/;

/**
 * Error results of a shell call that say why it has no exit code: the user rejected or interrupted
 * it, the input failed validation, or a permission rule stopped it. Anything else without an
 * `Exit code N` line is a shape the reader does not know ({@link unreadShellResultDiagnostic}).
 */
const NO_EXIT_CODE_SHAPES: readonly RegExp[] = [
  /^The user doesn't want to (?:proceed|take this action)/,
  /^\[Request interrupted by user/,
  /^<tool_use_error>/,
  /^Claude requested permissions? to /,
  /^Permission to use \S+ (?:with command .* )?has been denied/s,
];

/**
 * Build the unified call for one `tool_use` block and its result (undefined when no result exists).
 *
 * - Outcome: no result → `pending`; `is_error: true` → `error`; otherwise `success`. A Bash call run
 *   with `run_in_background: true` stays `pending` when its (launch) result is not an error: the
 *   result only says the command started, not how it ended.
 * - Bash and PowerShell exit code: `Exit code N` on the first line of an error result (or of the preview of a
 *   persisted output); 0 for a non-error result of a foreground command; undefined otherwise
 *   (rejections, validation errors, interrupts, background commands).
 * - Output: the result text as recorded. A persisted output (`<persisted-output>` with the file
 *   path and a 2 KB preview) is kept as that reference text; the file itself is not read.
 */
export function buildClaudeToolCall(
  use: ClaudeToolUse,
  result: ClaudeToolResult | undefined,
  timestamp: string | undefined,
  budget: ExcerptBudget = {},
): ToolCall {
  const kind = mapClaudeToolName(use.name, use.side ?? 'client');
  const background = kind === 'shell' && use.input['run_in_background'] === true;
  const outcome: ToolOutcome = !result ? 'pending' : result.isError ? 'error' : background ? 'pending' : 'success';
  const output = result?.text === undefined ? undefined : makeOutputExcerpt(result.text, budget.head, budget.tail);
  const base = {
    id: use.id,
    rawName: use.name,
    input: use.input,
    outcome,
    ...(output ? { output } : {}),
    ...(timestamp === undefined ? {} : { timestamp }),
  };
  if (kind === 'shell') {
    const command = use.input['command'];
    const exitCode = shellExitCode(result, background);
    return {
      ...base,
      kind,
      paths: [],
      command: typeof command === 'string' ? command : '',
      ...(exitCode === undefined ? {} : { exitCode }),
      ...(use.name === 'PowerShell' ? { dialect: 'powershell' as const } : {}),
    };
  }
  // TodoWrite sets the whole task list: `todos: [{ content, status, activeForm }]`.
  const taskList = kind === 'plan' && use.name === 'TodoWrite' ? taskListFrom(use.input['todos'], 'content') : undefined;
  return { ...base, kind, paths: KINDS_WITH_PATHS.has(kind) ? inputPaths(use.input) : [], ...(taskList !== undefined ? { taskList } : {}) };
}

function shellExitCode(result: ClaudeToolResult | undefined, background: boolean): number | undefined {
  if (!result) return undefined;
  if (!result.isError) return background ? undefined : 0;
  return result.text === undefined ? undefined : parseExitCodeLine(result.text);
}

/**
 * A diagnostic for the shell calls (Bash, PowerShell) whose error result the reader could not
 * interpret: no `Exit code N` line (in the text or a persisted output's preview) and none of the
 * shapes that explain a missing exit code. Such a call stays an `error` with no exit code; the
 * diagnostic says so instead of leaving it silent. Names the tools and call ids, never the text.
 */
export function unreadShellResultDiagnostic(calls: readonly ToolCall[], results: ReadonlyMap<string, ClaudeToolResult>): TimelineDiagnostic | undefined {
  const unread: string[] = [];
  for (const call of calls) {
    if (call.kind !== 'shell' || call.exitCode !== undefined || call.outcome !== 'error') continue;
    const text = results.get(call.id)?.text?.trimStart() ?? '';
    if (NO_EXIT_CODE_SHAPES.some((shape) => shape.test(text))) continue;
    unread.push(`${call.rawName} ${call.id}`);
  }
  if (unread.length === 0) return undefined;
  const shown = unread.slice(0, 3).join(', ');
  const more = unread.length > 3 ? ` and ${unread.length - 3} more` : '';
  return {
    level: 'warn',
    code: 'unread-shell-result',
    message: `${unread.length} failed shell call(s) with a result of no known shape (no "Exit code N" line): ${shown}${more}. Their exit status is unknown.`,
  };
}

/**
 * The exit code from Claude's Bash error text (`Exit code 2\n<output>`), looking inside the preview
 * when the output was persisted to disk. Undefined when the text does not start that way.
 */
export function parseExitCodeLine(text: string): number | undefined {
  let body = text;
  if (body.trimStart().startsWith(PERSISTED_OUTPUT_OPEN)) {
    const header = PERSISTED_PREVIEW_HEADER.exec(body);
    if (!header) return undefined;
    body = body.slice(header.index + header[0].length);
  }
  const found = EXIT_CODE_LINE.exec(body);
  if (!found?.[1]) return undefined;
  const code = Number.parseInt(found[1], 10);
  return Number.isSafeInteger(code) ? code : undefined;
}

function inputPaths(input: Readonly<Record<string, unknown>>): string[] {
  const paths: string[] = [];
  for (const key of PATH_KEYS) {
    const value = input[key];
    if (typeof value === 'string' && value.length > 0 && !paths.includes(value)) paths.push(value);
  }
  return paths;
}
