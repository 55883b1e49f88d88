import {
  emptyTimeline,
  isDeliveredCheckpoint,
  mergeCallsByTime,
  noRecordsDiagnostic,
  ownCheckpointRule,
  readJsonlTail,
  readTranscriptTurn,
  tailReadDiagnostics,
  transcriptWording,
  withReadStats,
  type NoRecordsWording,
  type OwnCheckpointRule,
  type ReadTurnRequest,
  type TimelineDiagnostic,
  type TokenUsage,
  type ToolCall,
  type TranscriptTurnFile,
  type TranscriptTurnReader,
  type TurnTimeline,
} from '@agent-checkpoint/core';
import { parseQwenRecord, type QwenRecord } from './qwen-record.ts';
import { resultsById, toCall } from './qwen-tool-call.ts';
import { readQwenSubagents, subagentRefsOf } from './read-qwen-subagents.ts';

const AGENT = 'qwen';
const PROMPT_CHARS = 2000;
const USAGE_HISTORY = 20;
const READER: TranscriptTurnReader = { agent: AGENT, wording: transcriptWording('Qwen chat recording') };
const NO_RECORDS: NoRecordsWording = {
  noCompleteLine: (bytes) => `No complete line in the last ${bytes} bytes of the Qwen chat recording.`,
  blank: (path) => `The Qwen chat recording holds only whitespace: ${path}`,
  foreign: (path) => `Not a Qwen Code chat recording (no Qwen records): ${path}`,
  unknown: (path) => `No Qwen Code records found in ${path}.`,
};

type UserRecord = Extract<QwenRecord, { kind: 'user' }>;

/** Tuning knobs of the reader (tests use a small chunk size to cross chunk boundaries). */
export interface ReadQwenTurnOptions {
  readonly chunkBytes?: number;
  /** Read the files of the subagents the turn started (`subagents/<session>/agent-<type>-<call id>.jsonl`). Default true. */
  readonly subagents?: boolean;
}

/**
 * Read the current turn of a Qwen Code chat recording, backwards from its end and never more than
 * `maxBytes`. The turn opens at the last prompt the user typed (`type:"user"`, provenance
 * `real_user`, no subtype: a `<task-notification>` or runtime message continues the turn) that is not
 * one of our checkpoints; with a hint `turnId` (the Stop payload's `prompt_id`), at the prompt whose
 * telemetry records carry that id, else the last one with `turn-not-found`. Qwen never writes a Stop hook's block reason to
 * the file: the calls the model makes after a block simply follow in the same turn, and
 * `checkpointsDelivered` counts only checkpoints that reached the file as prompts. Calls pair with
 * their `functionResponse` by id; a shell call's exit code is `resultDisplay.exitCode`, else
 * `Exit Code: N` in its text. Never throws.
 */
export function readQwenTurn(request: ReadTurnRequest, options: ReadQwenTurnOptions = {}): TurnTimeline {
  return readTranscriptTurn(request, READER, (file) => readFile(request, file, options));
}

function readFile(request: ReadTurnRequest, { path, maxBytes, bounds }: TranscriptTurnFile, options: ReadQwenTurnOptions): TurnTimeline {
  const own = ownCheckpointRule(request);
  const records: QwenRecord[] = []; // newest first
  let qwenLines = 0;
  let foreignLines = 0;
  let sessionId: string | undefined;
  // The payload's `prompt_id` names the turn; its telemetry records follow the prompt in the file.
  const wanted = typeof request.hint?.turnId === 'string' && request.hint.turnId !== '' ? request.hint.turnId : undefined;
  let found: { readonly boundary: UserRecord; readonly from: number; readonly to: number } | undefined;
  let fallback: { readonly boundary: UserRecord; readonly to: number } | undefined;
  let laterPromptAt = -1;
  let segmentNamed = false;
  const tail = readJsonlTail(path, {
    ...bounds,
    ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
    visit: (raw) => {
      const record = parseQwenRecord(raw);
      if (record === undefined) {
        foreignLines += 1;
        return 'continue';
      }
      qwenLines += 1;
      sessionId ??= (raw as { sessionId: string }).sessionId;
      records.push(record);
      if (record.kind === 'telemetry' && record.promptId === wanted) segmentNamed = true;
      if (record.kind !== 'user' || !record.prompt || isDeliveredCheckpoint(record.text, own)) return 'continue';
      const at = records.length - 1;
      if (wanted === undefined || segmentNamed) {
        found = { boundary: record, from: laterPromptAt + 1, to: at };
        return 'stop';
      }
      // Not the hinted turn: the last prompt's turn stays the answer unless an older one is named.
      fallback ??= { boundary: record, to: at };
      laterPromptAt = at;
      return 'continue';
    },
  });
  const turn = found ?? (fallback === undefined ? undefined : { boundary: fallback.boundary, from: 0, to: fallback.to });
  const boundary = turn?.boundary;

  // The stats describe the main file; the subagent files share the cap (what is left of it) apart.
  const stat = (t: TurnTimeline): TurnTimeline => withReadStats(t, tail.bytesRead, tail.fileSize);
  if (qwenLines === 0) return stat(emptyTimeline(AGENT, noRecordsDiagnostic(tail, foreignLines, path, NO_RECORDS)));

  const diagnostics = tailReadDiagnostics(tail);
  const complete = boundary !== undefined;
  if (!complete && !tail.reachedStart) diagnostics.push({ level: 'warn', code: 'cap-reached', message: 'The turn began before the bytes read: only its end is known.' });
  if (!complete && tail.reachedStart && !tail.aborted) {
    return stat({ ...emptyTimeline(AGENT), diagnostics: [...diagnostics, { level: 'warn', code: 'no-turn', message: `No prompt of the user in ${path}.` }] });
  }
  const oldestFirst = (turn === undefined ? records : records.slice(turn.from, turn.to + 1)).reverse();
  const promptId = oldestFirst.find((record) => record.kind === 'telemetry')?.promptId;
  if (boundary !== undefined && (found === undefined || !hintNames(request, boundary, promptId))) {
    diagnostics.push({ level: 'info', code: 'turn-not-found', message: "The hook named a turn that is not in the recording: read the last prompt's turn." });
  }
  const timeline = buildTimeline(oldestFirst, boundary, own, promptId, !complete, diagnostics);
  if (options.subagents === false) return stat(timeline);
  const refs = subagentRefsOf(oldestFirst);
  if (refs.length === 0 || sessionId === undefined) return stat(timeline);
  const walk = readQwenSubagents({
    transcriptPath: path,
    sessionId,
    refs,
    ...bounds,
    maxBytes: Math.max(0, maxBytes - tail.bytesRead),
    knownCallIds: new Set(timeline.calls.map((call) => call.id)),
  });
  return stat({
    ...timeline,
    calls: mergeCallsByTime(timeline.calls, walk.calls),
    truncated: timeline.truncated || walk.truncated,
    diagnostics: [...timeline.diagnostics, ...walk.diagnostics],
  });
}

/**
 * Whether the caller's hint (if any) names the turn found (its `prompt_id` was matched while reading;
 * a prompt text must open the turn).
 */
function hintNames(request: ReadTurnRequest, boundary: UserRecord, promptId: string | undefined): boolean {
  const { turnId, prompt } = request.hint ?? {};
  if (typeof turnId === 'string' && turnId !== '' && turnId !== promptId) return false;
  if (typeof prompt === 'string' && prompt.trim() !== '' && !boundary.text.trimStart().startsWith(prompt.trimStart())) return false;
  return true;
}

/**
 * The timeline of `records` (oldest first, the boundary prompt first when found). The turn id is the
 * turn's `prompt_id` (from its telemetry records) refined by the opening prompt's uuid
 * (`<prompt_id>#<uuid>`, core's `refinesTurnId` form): a `prompt_id` is a per-process counter
 * (`<session>########<n>`), which a later process resuming the session may count again.
 */
function buildTimeline(
  records: readonly QwenRecord[],
  boundary: UserRecord | undefined,
  own: OwnCheckpointRule,
  promptId: string | undefined,
  truncated: boolean,
  diagnostics: readonly TimelineDiagnostic[],
): TurnTimeline {
  const results = resultsById(records);
  const calls: ToolCall[] = [];
  const seen = new Set<string>();
  const usage: TokenUsage[] = [];
  let checkpointsDelivered = 0;
  let lastUserMessage: string | undefined;
  let lastAssistantMessage: string | undefined;
  for (const record of records) {
    switch (record.kind) {
      case 'user':
        if (record.text === '') break;
        lastUserMessage = record.text;
        if (record !== boundary && isDeliveredCheckpoint(record.text, own)) checkpointsDelivered += 1;
        break;
      case 'assistant':
        if (record.text.trim() !== '') lastAssistantMessage = record.text;
        if (record.usage !== undefined) usage.push(record.usage);
        for (const call of record.calls) {
          if (seen.has(call.id)) continue;
          seen.add(call.id);
          calls.push(toCall(call, record.timestamp, results.get(call.id)));
        }
        break;
      case 'tool-result':
      case 'telemetry':
      case 'other':
        break;
    }
  }
  const history = usage.slice(-USAGE_HISTORY);
  const tokenUsage = history.at(-1);
  const turnId = boundary === undefined ? undefined : promptId === undefined ? boundary.uuid : `${promptId}#${boundary.uuid}`;
  return {
    agent: AGENT,
    hasData: true,
    ...(turnId !== undefined ? { turnId } : {}),
    ...(boundary !== undefined ? { prompt: boundary.text.slice(0, PROMPT_CHARS) } : {}),
    ...(boundary?.timestamp !== undefined ? { startedAt: boundary.timestamp } : {}),
    calls,
    checkpointsDelivered,
    ...(lastUserMessage !== undefined ? { lastUserMessage } : {}),
    ...(lastAssistantMessage !== undefined ? { lastAssistantMessage } : {}),
    ...(tokenUsage !== undefined ? { tokenUsage, usageHistory: history } : {}),
    truncated,
    diagnostics,
  };
}

