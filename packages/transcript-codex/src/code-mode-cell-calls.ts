import type { TimelineDiagnostic, ToolCall, ToolOutcome } from '@agent-checkpoint/core';
import type { CallOutputRecord, CallRecord, CodexRecord } from './codex-record.ts';
import { mapCodexToolName } from './map-codex-tool-name.ts';
import { patchPathsFromText } from './patch-paths.ts';
import { readCodeModeCell, type NestedToolCall } from './read-code-mode-cell.ts';

/** The code-mode container tool: its input is a JavaScript cell. */
export const CODE_MODE_CELL_TOOL = 'exec';
/** The tool that continues a yielded cell (`wait {"cell_id":"7"}`). */
const WAIT_TOOL = 'wait';

/** A call recovered from a cell's script, placed right after the cell in the turn. */
export interface CellCall {
  readonly turnKey: string;
  /** Sorts the call after its cell and before the next line (cell offset + a fraction). */
  readonly offset: number;
  readonly call: ToolCall;
}

/** A diagnostic about one cell, with the turn it belongs to (only the read turn's are reported). */
export interface CellDiagnostic {
  readonly turnKey: string;
  readonly diagnostic: TimelineDiagnostic;
}

/** How a cell ended, from the first line of its output (or of the `wait` that finished it). */
type CellStatus = 'completed' | 'failed' | 'terminated' | 'running' | 'no-output';

const STATUS_LINE = /^Script (completed|failed|terminated|running with cell ID (\S+))/;
const PATCH_FAILED = /apply_patch verification failed|Failed to find expected lines|invalid patch/i;

/**
 * Nested tool calls of the code-mode cells of rollouts that do not record them (Codex 0.144–0.147:
 * the nested `exec_command` calls are written nowhere but in the cell's script and its output). Each
 * literal `tools.<name>(…)` call of a cell (see {@link readCodeModeCell}) becomes a call of its own,
 * with the id `<cell call id>#<n>`:
 *
 * - **outcome**: `unknown` when the cell ran to its end (`Script completed`, `Script terminated`): the
 *   call ran, the rollout does not say how it ended. `Script failed` says the cell threw, not which
 *   call: the calls stay `unknown`, except an `apply_patch` when the error text is a patch failure and
 *   the cell has exactly one (it is then `error`; `exec_command` never throws on a non-zero exit). A
 *   cell that is still running or has no output yet gives `pending` calls;
 * - **command**: an `exec_command` whose `cmd` is not a literal (`{cmd: c}` in a loop) is a shell call
 *   with an empty (unknown) command, and a warning says so;
 * - a cell the parser cannot read gives a warning and no calls.
 *
 * Rollouts that record nested calls (0.169: `CommandExecution` / `FileChange` items with `exec-…` ids)
 * are left alone: there every nested call already is a call of its own. Such a rollout is told by its
 * `session_meta.cli_version` when the window holds it (0.148 and later; 0.144–0.147 do not record
 * them), else by the `item_completed` items that version writes for every turn (`UserMessage` before
 * the first cell, so a rollout read while the first cell runs is not mistaken for an older one).
 * A nested `apply_patch` that an older rollout recorded (`patch_apply_end` with an `exec-…` id between
 * the cell and the next top-level call) is not recovered a second time.
 */
export function codeModeCellCalls(
  records: readonly CodexRecord[],
  turnKeyOf: (record: CodexRecord) => string,
  /** When given, only the cells of these turns are read (parsing is the costly part). */
  turns?: ReadonlySet<string>,
): { readonly calls: readonly CellCall[]; readonly diagnostics: readonly CellDiagnostic[] } {
  if (recordsNestedCalls(records)) return { calls: [], diagnostics: [] };
  const outputs = new Map<string, CallOutputRecord>();
  const waits: CallRecord[] = [];
  const topLevel: CallRecord[] = [];
  for (const record of records) {
    if (record.type === 'call-output') outputs.set(record.callId, record);
    if (record.type === 'call') {
      if (record.rawName === WAIT_TOOL) waits.push(record);
      else topLevel.push(record);
    }
  }

  // One cell per call id: a duplicated line is the same cell (the last copy wins, as for other calls).
  const cells = new Map<string, CallRecord>();
  for (const cell of topLevel) if (cell.rawName === CODE_MODE_CELL_TOOL) cells.set(cell.callId, cell);
  const calls: CellCall[] = [];
  const diagnostics: CellDiagnostic[] = [];
  for (const cell of cells.values()) {
    const script = cell.input['input'];
    if (typeof script !== 'string') continue;
    const turnKey = turnKeyOf(cell);
    if (turns !== undefined && !turns.has(turnKey)) continue;
    const reading = readCodeModeCell(script);
    if (reading.kind === 'unreadable') {
      diagnostics.push({
        turnKey,
        diagnostic: {
          level: 'warn',
          code: 'code-cell-unreadable',
          message: `Code-mode cell ${cell.callId} is not JavaScript the parser can read (${reading.reason}): the commands it ran are unknown.`,
        },
      });
      continue;
    }
    const end = topLevel.find((other) => other.offset > cell.offset)?.offset ?? Number.POSITIVE_INFINITY;
    const recordedPatches = records.some(
      (record) => record.type === 'patch-result' && record.callId.startsWith('exec-') && record.offset > cell.offset && record.offset < end,
    );
    const finished = cellOutput(cell, outputs, waits);
    const status = statusOf(finished);
    const nested = reading.calls.filter((call) => !(call.tool === 'apply_patch' && recordedPatches));
    const patches = nested.filter((call) => call.tool === 'apply_patch').length;
    const dynamic = nested.filter((call) => !call.literal).length;
    if (dynamic > 0) {
      diagnostics.push({
        turnKey,
        diagnostic: {
          level: 'warn',
          code: 'code-cell-dynamic-call',
          message: `Code-mode cell ${cell.callId} makes ${dynamic} tool call(s) whose command or patch is not a literal: shell calls with an unknown command.`,
        },
      });
    }
    nested.forEach((call, index) => {
      const outcome = nestedOutcome(call, status, finished?.body ?? '', patches);
      calls.push({
        turnKey,
        offset: cell.offset + (index + 1) / (nested.length + 1),
        call: toToolCall(call, `${cell.callId}#${index + 1}`, outcome, cell.timestamp),
      });
    });
  }
  return { calls, diagnostics };
}

/** The first Codex version whose rollouts are known not to lack nested calls (0.147 lacks them). */
const FIRST_RECORDING_MINOR = 148;

/** Whether the rollout records every nested call itself (see {@link codeModeCellCalls}). */
function recordsNestedCalls(records: readonly CodexRecord[]): boolean {
  const version = records.find((record) => record.type === 'session-meta' && record.cliVersion !== undefined);
  const minor = version?.type === 'session-meta' ? /^0\.(\d+)\./.exec(version.cliVersion ?? '')?.[1] : undefined;
  if (minor !== undefined && Number(minor) < FIRST_RECORDING_MINOR) return false;
  return records.some(
    (record) =>
      (record.type === 'command-result' && record.rawName === 'CommandExecution') ||
      (record.type === 'patch-result' && record.rawName === 'FileChange') ||
      ((record.type === 'user-text' || record.type === 'assistant-text' || record.type === 'hook-prompt') && record.source === 'item'),
  );
}

/** The output that says how the cell ended: its own, or when it yielded, that of the last `wait` on it. */
function cellOutput(cell: CallRecord, outputs: ReadonlyMap<string, CallOutputRecord>, waits: readonly CallRecord[]): CallOutputRecord | undefined {
  let output = outputs.get(cell.callId);
  // Follow the yielded cell through the `wait` calls that name its cell id.
  for (let guard = 0; guard < waits.length && output; guard += 1) {
    const running = STATUS_LINE.exec(output.body)?.[2];
    if (running === undefined) break;
    const wait = waits.find((w) => w.offset > output!.offset && String(w.input['cell_id'] ?? '') === running);
    const next = wait ? outputs.get(wait.callId) : undefined;
    if (!next) break;
    output = next;
  }
  return output;
}

function statusOf(output: CallOutputRecord | undefined): CellStatus {
  if (!output) return 'no-output';
  const match = STATUS_LINE.exec(output.body);
  if (!match) return 'completed';
  if (match[2] !== undefined) return 'running';
  return match[1] === 'failed' ? 'failed' : match[1] === 'terminated' ? 'terminated' : 'completed';
}

function nestedOutcome(call: NestedToolCall, status: CellStatus, text: string, patches: number): ToolOutcome {
  switch (status) {
    case 'no-output':
    case 'running':
      return 'pending';
    case 'completed':
    case 'terminated':
      return 'unknown';
    case 'failed':
      return call.tool === 'apply_patch' && patches === 1 && PATCH_FAILED.test(text) ? 'error' : 'unknown';
  }
}

function toToolCall(nested: NestedToolCall, id: string, outcome: ToolOutcome, timestamp: string | undefined): ToolCall {
  const kind = mapCodexToolName(nested.tool);
  const input = nested.literal ? nested.input : { ...nested.input, source: nested.source };
  const base = { id, rawName: nested.tool, input, outcome, ...(timestamp !== undefined ? { timestamp } : {}) };
  if (kind === 'shell') return { ...base, kind, paths: [], command: nested.command ?? '' };
  if (kind === 'patch') return { ...base, kind, paths: nested.patchText !== undefined ? patchPathsFromText(nested.patchText) : [] };
  const path = kind === 'read' ? nested.input['path'] : undefined;
  return { ...base, kind, paths: typeof path === 'string' && path !== '' ? [path] : [] };
}
