import { isAbsolute, resolve } from 'node:path';
import { makeOutputExcerpt, taskListFrom, type ToolCall, type ToolKind, type ToolOutcome } from '@agent-checkpoint/core';
import type { CallOutputRecord, CallRecord, CodexRecord, CommandResultRecord, ItemToolRecord, PatchResultRecord } from './codex-record.ts';
import { codeModeCellCalls, type CellDiagnostic } from './code-mode-cell-calls.ts';
import { mapCodexToolName } from './map-codex-tool-name.ts';
import { patchPathsFromText } from './patch-paths.ts';
import { asStringArray, shellDialectOfArgv } from './command-text.ts';

/** A tool call with the turn it belongs to. */
export interface PlacedToolCall {
  /** Key of the turn the call was made in (see `group-codex-turns.ts`). */
  readonly turnKey: string;
  readonly call: ToolCall;
}

/** Everything the read window holds about one call id. */
interface CallParts {
  readonly callId: string;
  call?: CallRecord;
  output?: CallOutputRecord;
  command?: CommandResultRecord;
  patch?: PatchResultRecord;
  item?: ItemToolRecord;
  /** Later polls (`write_stdin`) of the process this call started. */
  polls: CallParts[];
  /** Position of the call (the call line, else its first result line). */
  offset: number;
}

/**
 * Join calls and results by `call_id` (the `item.id` of structured items), never by position, and
 * merge the forms Codex writes for one call into a single {@link ToolCall}:
 * `function_call` / `custom_tool_call` / `local_shell_call` (what the model asked for),
 * `function_call_output` / `custom_tool_call_output` (what the model saw), and the structured result:
 * a `CommandExecution` / `FileChange` item (0.169) or an `exec_command_end` / `patch_apply_end` event
 * (older). The structured result wins for exit code, paths and output.
 *
 * @param turnKeyOf the turn of a record (as grouped by `groupCodexTurns`).
 * Code-mode cells of older rollouts, which do not record their nested calls, add the literal calls of
 * their scripts (see `code-mode-cell-calls.ts`), right after the cell.
 *
 * @param cwd the session cwd, used only to drop absolute `FileChange` paths that duplicate a relative
 *   patch-text path.
 * @param cells `diagnostics` receives what the reader could not interpret (an unreadable cell…), per
 *   turn; `turns`, when given, limits the (parsing) reading of cells to those turns.
 */
export function buildToolCalls(
  records: readonly CodexRecord[],
  turnKeyOf: (record: CodexRecord) => string,
  cwd: string | undefined,
  cells: { readonly diagnostics?: CellDiagnostic[]; readonly turns?: ReadonlySet<string> } = {},
): PlacedToolCall[] {
  const parts = new Map<string, CallParts>();
  const turnKeys = new Map<string, string>();
  const part = (callId: string, record: CodexRecord): CallParts => {
    let entry = parts.get(callId);
    if (!entry) {
      entry = { callId, polls: [], offset: record.offset };
      parts.set(callId, entry);
      turnKeys.set(callId, turnKeyOf(record));
    }
    return entry;
  };

  for (const record of records) {
    switch (record.type) {
      case 'call': {
        const entry = part(record.callId, record);
        entry.call = record;
        // The call line decides the call's turn and position.
        entry.offset = record.offset;
        turnKeys.set(record.callId, turnKeyOf(record));
        break;
      }
      case 'call-output':
        part(record.callId, record).output = record;
        break;
      case 'command-result':
        part(record.callId, record).command = record;
        break;
      case 'patch-result':
        part(record.callId, record).patch = record;
        break;
      case 'item-tool':
        part(record.callId, record).item = record;
        break;
      default:
        break;
    }
  }

  linkPolls([...parts.values()]);
  mergeWebSearches(parts, turnKeys);

  const placed: { offset: number; turnKey: string; call: ToolCall }[] = [];
  for (const entry of parts.values()) {
    // A command the user ran themselves (`!cmd` in the TUI) is not the agent's action.
    if (!entry.call && entry.command?.origin === 'user_shell') continue;
    placed.push({ offset: entry.offset, turnKey: turnKeys.get(entry.callId) ?? '#window-start', call: toToolCall(entry, cwd) });
  }
  const read = codeModeCellCalls(records, turnKeyOf, cells.turns);
  placed.push(...read.calls);
  cells.diagnostics?.push(...read.diagnostics);
  placed.sort((a, b) => a.offset - b.offset);
  return placed.map(({ turnKey, call }) => ({ turnKey, call }));
}

/** Synthetic call id of a `web_search_call` response item written without its `id` (see parse-codex-line). */
const ANONYMOUS_WEB_SEARCH = 'web_search_call@';

/**
 * One web search is written twice: the `web_search_call` response item (the rollout drops its `id`)
 * and the `web_search_end` event or `WebSearch` item (with the id). Each id-less response item is
 * folded into the nearest id-carrying web search of the same turn with the same query (or no query
 * to compare), so the search counts once; one with no such partner stays a call of its own.
 */
function mergeWebSearches(parts: Map<string, CallParts>, turnKeys: Map<string, string>): void {
  const searches = [...parts.values()].filter((entry) => entry.item?.rawName === 'web_search' && !entry.call);
  const named = searches.filter((entry) => !entry.callId.startsWith(ANONYMOUS_WEB_SEARCH));
  const taken = new Set<CallParts>();
  for (const anonymous of searches.filter((entry) => entry.callId.startsWith(ANONYMOUS_WEB_SEARCH))) {
    const turn = turnKeys.get(anonymous.callId);
    const query = searchQuery(anonymous.item?.input);
    let best: CallParts | undefined;
    for (const candidate of named) {
      if (taken.has(candidate) || turnKeys.get(candidate.callId) !== turn) continue;
      const other = searchQuery(candidate.item?.input);
      if (query !== undefined && other !== undefined && other !== query) continue;
      if (!best || Math.abs(candidate.offset - anonymous.offset) < Math.abs(best.offset - anonymous.offset)) best = candidate;
    }
    if (!best) continue;
    taken.add(best);
    // The response item may say more about the outcome (`status: failed`) than the end event.
    if (best.item && anonymous.item?.outcome === 'error') best.item = { ...best.item, outcome: 'error' };
    best.offset = Math.min(best.offset, anonymous.offset);
    parts.delete(anonymous.callId);
  }
}

/** The query of a web search input: `query`, `action.query`, or the first of `action.queries`. */
function searchQuery(input: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!input) return undefined;
  const action = input['action'];
  const nested = typeof action === 'object' && action !== null ? (action as Record<string, unknown>) : input;
  const direct = input['query'] ?? nested['query'];
  if (typeof direct === 'string' && direct.trim() !== '') return direct.trim();
  const queries = nested['queries'];
  return Array.isArray(queries) && typeof queries[0] === 'string' ? queries[0].trim() : undefined;
}

function isOnlyPoll(entry: CallParts): boolean {
  return entry.call === undefined && entry.command?.origin === 'unified_exec_interaction';
}

/**
 * Credit `write_stdin` polls to the `exec_command` that started the process: the command's own output
 * said `Process running with session ID N` (or its `CommandExecution` carried `process_id`), and the
 * poll names the same session / process. Only used when the command has no final structured result.
 */
function linkPolls(entries: readonly CallParts[]): void {
  const bySession = new Map<string, CallParts>();
  const byProcess = new Map<string, CallParts>();
  for (const entry of entries) {
    if (entry.call?.rawName === 'write_stdin') {
      const session = entry.call.stdinSessionId;
      const origin = session !== undefined ? bySession.get(session) : undefined;
      if (origin && origin !== entry) origin.polls.push(entry);
      continue;
    }
    if (entry.command?.origin === 'unified_exec_interaction' && entry.command.processId !== undefined) {
      const origin = byProcess.get(entry.command.processId);
      if (origin && origin !== entry && !origin.polls.includes(entry)) origin.polls.push(entry);
      continue;
    }
    const session = entry.output?.runningSessionId;
    if (session !== undefined) bySession.set(session, entry);
    const process = entry.command?.processId;
    if (process !== undefined) byProcess.set(process, entry);
  }
}

function toToolCall(entry: CallParts, cwd: string | undefined): ToolCall {
  const { call, output, command, patch, item } = entry;
  const rawName = call?.rawName ?? item?.rawName ?? command?.rawName ?? patch?.rawName ?? 'unknown';
  const kind = kindOf(rawName, entry);
  const input = call?.input ?? item?.input ?? (command?.argv ? { command: command.argv } : patch ? { changes: patch.paths } : {});
  const timestamp = call?.timestamp ?? command?.timestamp ?? patch?.timestamp ?? item?.timestamp ?? output?.timestamp;
  const polled = finalPoll(entry);
  const exitCode = command?.exitCode ?? output?.exitCode ?? polled?.exitCode;
  const outcome = outcomeOf(entry, exitCode, polled);
  const outputText = outputTextOf(entry);
  const base = {
    id: entry.callId,
    rawName,
    input,
    paths: pathsOf(kind, entry, cwd),
    outcome,
    ...(outputText !== undefined ? { output: makeOutputExcerpt(outputText) } : {}),
    ...(timestamp !== undefined ? { timestamp } : {}),
  };
  if (kind === 'shell') {
    const dialect = shellDialectOfArgv(asStringArray(input['command']) ?? command?.argv);
    return {
      ...base,
      kind,
      command: call?.command ?? command?.command ?? '',
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(dialect !== undefined ? { dialect } : {}),
    };
  }
  // update_plan sets the whole task list: `plan: [{ step, status }]`.
  const taskList = kind === 'plan' && rawName === 'update_plan' ? taskListFrom(input['plan'], 'step') : undefined;
  return { ...base, kind, ...(taskList !== undefined ? { taskList } : {}) };
}

function kindOf(rawName: string, entry: CallParts): ToolKind {
  // Older models ran apply_patch through the shell tool; Codex applied it as a patch.
  if (entry.call?.patchText !== undefined) return 'patch';
  const mapped = mapCodexToolName(rawName);
  if (mapped !== 'other' || rawName === 'write_stdin') return mapped;
  if (entry.patch) return 'patch';
  if (entry.command) return 'shell';
  return mapped;
}

/** The final exit code reported by polls of this call's process, with the poll's outcome. */
function finalPoll(entry: CallParts): { exitCode: number } | undefined {
  for (let i = entry.polls.length - 1; i >= 0; i -= 1) {
    const poll = entry.polls[i];
    const exitCode = poll?.command?.exitCode ?? poll?.output?.exitCode;
    if (exitCode !== undefined) return { exitCode };
  }
  return undefined;
}

/**
 * How the call ended. Structured results decide first; then the model-facing text. An interrupted
 * command (`aborted by user`, no exit code) is `pending`: it proves nothing either way. A later
 * `CommandExecution` with the real exit code (0.169 writes one after `turn_aborted` when the process
 * finishes in the background) overrides that.
 */
function outcomeOf(entry: CallParts, exitCode: number | undefined, polled: { exitCode: number } | undefined): ToolOutcome {
  const { output, command, patch, item, call } = entry;
  if (call?.rawName === 'write_stdin' || (!call && isOnlyPoll(entry))) {
    // A poll succeeded when it returned; the process's exit code belongs to the polled command.
    return output || command ? 'success' : 'pending';
  }
  if (command) {
    if (isFailed(command.status)) return 'error';
    if (command.exitCode !== undefined) return command.exitCode === 0 ? 'success' : 'error';
    if (command.status === 'completed') return 'success';
  }
  if (patch) {
    if (patch.success === false || isFailed(patch.status)) return 'error';
    if (patch.success === true || patch.status === 'completed') return 'success';
  }
  if (item && item.outcome !== 'pending') return item.outcome;
  if (exitCode !== undefined) return exitCode === 0 ? 'success' : 'error';
  if (output) {
    if (output.failed) return 'error';
    if (output.aborted || output.runningSessionId !== undefined) return polled ? (polled.exitCode === 0 ? 'success' : 'error') : 'pending';
    return 'success';
  }
  return 'pending';
}

function isFailed(status: string | undefined): boolean {
  return status === 'failed' || status === 'declined';
}

/** Output text for the excerpt: structured output first, then the model-facing body, plus poll output. */
function outputTextOf(entry: CallParts): string | undefined {
  const own = entry.command?.output ?? entry.patch?.output ?? entry.item?.output ?? entry.output?.body;
  const polls = entry.polls.map((poll) => poll.command?.output ?? poll.output?.body).filter((text): text is string => !!text);
  if (polls.length === 0) return own;
  return [own ?? '', ...polls].join('');
}

/**
 * Paths of a call. Patch calls give the patch-text paths exactly as the model wrote them (relative,
 * matching what Claude and Gemini report for the same edit), followed by the absolute `FileChange` /
 * `patch_apply_end` paths that do not resolve to one of them. Read calls give their target.
 */
function pathsOf(kind: ToolKind, entry: CallParts, cwd: string | undefined): string[] {
  if (kind === 'read') {
    const path = entry.call?.path ?? entry.item?.path;
    return path ? [path] : [];
  }
  if (kind !== 'patch') return [];
  const written = entry.call?.patchText !== undefined ? patchPathsFromText(entry.call.patchText) : [];
  const base = cwd && isAbsolute(cwd) ? cwd : undefined;
  const normalize = (path: string): string => (isAbsolute(path) ? resolve(path) : base ? resolve(base, path) : path);
  const resolved = new Set(written.map(normalize));
  const absolute = (entry.patch?.paths ?? []).filter((path) => !written.includes(path) && !resolved.has(normalize(path)));
  return [...written, ...absolute];
}
