import { makeOutputExcerpt, taskListFrom } from '@agent-checkpoint/core';
import type { ToolCall, ToolKind, ToolOutcome } from '@agent-checkpoint/core';
import { P, match } from 'ts-pattern';
import { isRecord } from './gemini-record.ts';
import { mapGeminiToolName } from './map-gemini-tool-name.ts';
import { parseGeminiShellResult, unwrapGeminiToolOutput } from './parse-gemini-tool-output.ts';

/** Where a `toolCalls[]` entry sits, and results recorded elsewhere in the turn. */
export interface GeminiToolCallContext {
  readonly messageId: string;
  readonly messageTimestamp?: string;
  /** Index of the entry in its message's `toolCalls`, used when the entry has no id. */
  readonly index: number;
  /**
   * `functionResponse` parts of the turn's tool-result `user` messages, by call id: the fallback
   * when an entry carries no `result` of its own.
   */
  readonly responsesById: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

/**
 * Normalize one `toolCalls[]` entry of a `gemini` message into a {@link ToolCall}.
 *
 * Outcome:
 * - `status: "error"` → error (the tool itself failed: missing file, bad arguments…);
 * - `status: "cancelled"` → error: the user declined or aborted the call, so it is not evidence
 *   that anything ran (a cancelled test run must not count as a passing one);
 * - a shell command: `status` stays `"success"` when the command fails, so the result's trailer
 *   decides: `Exit Code: N` (N ≠ 0), `Signal: …`, `Error: …` or a cancelled/timed-out notice → error;
 *   no such line → exit code 0, success (0.61 omits `Exit Code: 0`). A masked output (lines may be
 *   missing) without an `Exit Code` line stays success with no exit code;
 * - a result whose response is `{error: …}` → error;
 * - no result at all → pending (unless a non-shell tool's status is `"success"`).
 */
export function buildGeminiToolCall(entry: unknown, context: GeminiToolCallContext): ToolCall | undefined {
  if (!isRecord(entry)) return undefined;
  const name = stringField(entry, 'name') ?? stringField(entry, 'displayName');
  if (name === undefined) return undefined;
  const kind = mapGeminiToolName(stringField(entry, 'name') ?? '');
  const id = stringField(entry, 'id') ?? `${context.messageId}#${context.index}`;
  const args = isRecord(entry['args']) ? entry['args'] : {};
  const status = stringField(entry, 'status');
  const response = findResponse(entry, id, name, context.responsesById);
  const responseOutput = response ? stringField(response, 'output') : undefined;
  const responseError = response ? stringField(response, 'error') : undefined;
  const rawText = responseOutput ?? responseError ?? resultDisplayText(entry['resultDisplay']);
  const unwrapped = rawText === undefined ? undefined : unwrapGeminiToolOutput(rawText);
  const hasResult = response !== undefined;

  let outcome: ToolOutcome;
  let exitCode: number | undefined;
  if (kind === 'shell' && unwrapped !== undefined && hasResult) {
    const shell = parseGeminiShellResult(unwrapped.text);
    exitCode = shell.exitCode ?? (unwrapped.masked || responseError !== undefined ? undefined : 0);
    const failed =
      (exitCode !== undefined && exitCode !== 0) || shell.signal !== undefined || shell.error !== undefined || shell.interrupted;
    outcome = failed || responseError !== undefined ? 'error' : 'success';
  } else if (hasResult) {
    outcome = responseError !== undefined && responseOutput === undefined ? 'error' : 'success';
  } else {
    outcome = status === 'success' && kind !== 'shell' ? 'success' : 'pending';
  }
  // The scheduler's verdict overrides what the text suggests.
  if (status === 'error' || status === 'cancelled') outcome = 'error';

  const timestamp = stringField(entry, 'timestamp') ?? context.messageTimestamp;
  const base = {
    id,
    rawName: name,
    input: args,
    paths: pathsOf(kind, name, args, entry['resultDisplay']),
    outcome,
    ...(unwrapped !== undefined && unwrapped.text.length > 0 ? { output: makeOutputExcerpt(unwrapped.text) } : {}),
    ...(timestamp !== undefined ? { timestamp } : {}),
  };
  if (kind === 'shell') {
    const command = typeof args['command'] === 'string' ? args['command'] : '';
    return { ...base, kind, command, ...(exitCode !== undefined ? { exitCode } : {}) };
  }
  // write_todos sets the whole task list: `todos: [{ description, status }]`.
  const taskList = kind === 'plan' && name === 'write_todos' ? taskListFrom(args['todos'], 'description') : undefined;
  return { ...base, kind, ...(taskList !== undefined ? { taskList } : {}) };
}

/**
 * The call's own `functionResponse`. After a history rewrite (`$set.messages`), `result` holds every
 * sibling response of a parallel batch, so the part is picked by call id, then by name when it is the
 * only one with that name; a result without ids falls back to its first response.
 */
function findResponse(
  entry: Readonly<Record<string, unknown>>,
  id: string,
  name: string,
  responsesById: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
): Readonly<Record<string, unknown>> | undefined {
  const responses: Readonly<Record<string, unknown>>[] = [];
  if (Array.isArray(entry['result'])) {
    for (const part of entry['result']) {
      if (isRecord(part) && isRecord(part['functionResponse'])) responses.push(part['functionResponse']);
    }
  }
  const byId = responses.find((r) => r['id'] === id);
  const byName = responses.filter((r) => r['name'] === name);
  const own =
    byId ??
    (byName.length === 1 ? byName[0] : undefined) ??
    (responses.length > 0 && responses.every((r) => r['id'] === undefined) ? responses[0] : undefined);
  const found = own ?? responsesById.get(id);
  if (!found) return undefined;
  return isRecord(found['response']) ? found['response'] : {};
}

/** `resultDisplay`: plain text for most tools; an object with a diff for write_file/replace. */
function resultDisplayText(display: unknown): string | undefined {
  return match(display)
    .with(P.string, (text) => (text.length > 0 ? text : undefined))
    .with({ fileDiff: P.string }, (d) => d.fileDiff)
    .with({ filePath: P.string }, (d) => d.filePath)
    .otherwise(() => undefined);
}

/**
 * Paths as the model wrote them in the arguments (`file_path`, may be relative to the project root;
 * `absolute_path` in older versions; `read_many_files` `paths`/`include`, which may be globs).
 * `resultDisplay.filePath` (absolute, resolved by the CLI) is used only when the arguments name no
 * path: the contract is "as written by the agent", so the same scenario yields the same paths for
 * every agent, and core resolves relative paths against the session cwd like the CLI does.
 */
function pathsOf(
  kind: ToolKind,
  name: string,
  args: Readonly<Record<string, unknown>>,
  resultDisplay: unknown,
): string[] {
  if (kind !== 'read' && kind !== 'write' && kind !== 'edit') return [];
  const paths: string[] = [];
  const add = (value: unknown): void => {
    if (typeof value === 'string' && value.length > 0 && !paths.includes(value)) paths.push(value);
  };
  add(args['file_path']);
  add(args['absolute_path']);
  if (name === 'read_many_files') {
    for (const key of ['paths', 'include']) {
      const list = args[key];
      if (Array.isArray(list)) list.forEach(add);
    }
  }
  if (paths.length === 0 && isRecord(resultDisplay)) add(resultDisplay['filePath']);
  return paths;
}

function stringField(record: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}
