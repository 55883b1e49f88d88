import {
  assertNever,
  emptyTimeline,
  mergeCallsByTime,
  noRecordsDiagnostic,
  noTurnData,
  ownCheckpointRule,
  readCutShortDiagnostic,
  readTranscriptTurn,
  tailReadDiagnostics,
  transcriptWording,
  withReadStats,
} from '@agent-checkpoint/core';
import type { ReadTurnRequest, TranscriptTurnFile, TranscriptTurnReader, TurnReadBounds, TurnTimeline } from '@agent-checkpoint/core';
import { buildGeminiTimeline } from './build-gemini-timeline.ts';
import { collectGeminiTail } from './collect-gemini-tail.ts';
import { findGeminiTurnBoundary } from './find-gemini-turn-boundary.ts';
import type { ForeignAgent, GeminiMessage } from './gemini-record.ts';
import { findGeminiSubagentRefs, readGeminiSubagents } from './read-gemini-subagents.ts';
import { primaryRule, type OwnCheckpoints } from './gemini-turn-rules.ts';
import { readGeminiLegacyJson } from './read-gemini-legacy-json.ts';
import { reduceGeminiRecords } from './reduce-gemini-records.ts';
import { SNIFF_BYTES, sniffGeminiFile } from './sniff-gemini-file.ts';

/** Tuning knobs of the reader (tests use a small chunk size to cross chunk boundaries). */
export interface ReadGeminiTurnOptions {
  /** Size of each backwards read. Default: core's default (64 KiB). */
  readonly chunkBytes?: number;
  /**
   * Read the recordings of the subagents the turn invoked (`chats/<sessionId>/<agentId>.jsonl`) and
   * add their calls, marked with their origin. Default true.
   */
  readonly subagents?: boolean;
}

const FOREIGN_NAMES: Readonly<Record<ForeignAgent, string>> = { claude: 'Claude Code', codex: 'Codex CLI' };
const READER: TranscriptTurnReader = { agent: 'gemini', wording: transcriptWording('Gemini transcript') };

/**
 * Read the current turn of a Gemini CLI chat recording. Never throws: every failure becomes
 * `hasData: false` plus a diagnostic.
 *
 * Reading is bounded: a few bytes at the start of the file tell its format and session id, then the
 * JSONL is read backwards from the end, never more than `maxBytes` in total (the sniffed head counts
 * against the cap when the file is larger than the cap). An older single-document `.json` recording
 * is parsed only when the whole file fits in the cap.
 */
export function readGeminiTurn(request: ReadTurnRequest, options: ReadGeminiTurnOptions = {}): TurnTimeline {
  return readTranscriptTurn(request, READER, (file) => readFile(request, file, options));
}

function readFile(request: ReadTurnRequest, { path, size, maxBytes, bounds }: TranscriptTurnFile, options: ReadGeminiTurnOptions): TurnTimeline {
  // The sniff is charged to the cap when the tail read cannot cover it anyway.
  const sniffLength = size <= maxBytes ? Math.min(size, SNIFF_BYTES) : Math.min(SNIFF_BYTES, Math.floor(maxBytes / 8));
  const format =
    sniffLength > 0 ? sniffGeminiFile(path, sniffLength, sniffLength === size) : ({ format: 'jsonl' } as const);
  switch (format.format) {
    case 'binary':
      return withReadStats(noTurnData('gemini', 'unknown-format', `Not a Gemini chat recording (binary data, not text): ${path}`), sniffLength, size);
    case 'blank':
      return withReadStats(noTurnData('gemini', 'empty-file', `The Gemini transcript holds only whitespace: ${path}`), sniffLength, size);
    case 'not-json':
      return withReadStats(noTurnData('gemini', 'unknown-format', `Not a Gemini chat recording (does not start with a JSON object): ${path}`), sniffLength, size);
    case 'legacy-json':
      return readLegacy({ request, options, path, size, maxBytes, bounds, sniffLength });
    case 'jsonl':
      return readJsonl({ request, options, path, size, maxBytes, bounds, sniffLength }, format.sessionId);
    default:
      return assertNever(format);
  }
}

/** What both format paths know once the file is opened and sniffed. */
interface ReadContext {
  readonly request: ReadTurnRequest;
  readonly options: ReadGeminiTurnOptions;
  readonly path: string;
  readonly size: number;
  readonly maxBytes: number;
  readonly bounds: TurnReadBounds;
  readonly sniffLength: number;
}

function readLegacy({ request, path, size, maxBytes, sniffLength }: ReadContext): TurnTimeline {
  if (size > maxBytes) {
    return withReadStats(
      noTurnData(
        'gemini',
        'legacy-too-large',
        `The Gemini transcript is an older single-document recording of ${size} bytes, larger than the ${maxBytes}-byte read cap; it cannot be read without parsing it whole.`,
      ),
      sniffLength,
      size,
    );
  }
  if (typeof request.deadlineAt === 'number' && Date.now() >= request.deadlineAt) {
    return withReadStats(emptyTimeline('gemini', readCutShortDiagnostic(true)), sniffLength, size);
  }
  const legacy = readGeminiLegacyJson(path);
  if (!legacy.ok) {
    return withReadStats(noTurnData('gemini', 'legacy-parse-error', `The Gemini transcript looks like an older .json recording but is ${legacy.reason}.`), size, size);
  }
  const reduced = reduceGeminiRecords(legacy.records);
  const timeline = buildGeminiTimeline({
    messages: reduced.messages,
    ...(legacy.sessionId !== undefined ? { sessionId: legacy.sessionId } : {}),
    checkpointPrefix: request.checkpointPrefix,
    ...(Array.isArray(request.deliveredDigests) ? { deliveredDigests: request.deliveredDigests } : {}),
    ...(request.checkpointMessages !== undefined ? { checkpointMessages: request.checkpointMessages } : {}),
    ...(request.hint?.prompt !== undefined ? { hintPrompt: request.hint.prompt } : {}),
    complete: true,
    rewritten: false,
  });
  return withReadStats(
    { ...timeline, diagnostics: [{ level: 'info', code: 'legacy-format', message: 'Read an older single-document (.json) recording.' }, ...timeline.diagnostics] },
    size,
    size,
  );
}

function readJsonl({ request, options, path, size, maxBytes, bounds, sniffLength }: ReadContext, sniffedSessionId: string | undefined): TurnTimeline {
  const tailCap = size <= maxBytes ? maxBytes : maxBytes - sniffLength;
  const collection = collectGeminiTail(path, {
    ...bounds,
    maxBytes: tailCap,
    rule: primaryRule(
      request.hint?.prompt,
      ownCheckpoints(request),
    ),
    ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
  });
  const { tail } = collection;
  // Distinct bytes read: the tail window plus whatever part of the sniffed head it did not cover.
  const bytesRead = tail.bytesRead + Math.max(0, Math.min(sniffLength, size - tail.bytesRead));

  if (collection.geminiLines === 0) {
    const corrupt = tail.corruptLines > 0 ? ` (${tail.corruptLines} unparseable line(s))` : '';
    const foreign = (Object.keys(collection.foreignLines) as ForeignAgent[]).sort(
      (a, b) => (collection.foreignLines[b] ?? 0) - (collection.foreignLines[a] ?? 0),
    )[0];
    const foreignName = foreign === undefined ? undefined : FOREIGN_NAMES[foreign];
    const diagnostic = noRecordsDiagnostic(tail, foreign === undefined ? 0 : 1, path, {
      noCompleteLine: () => `No complete line in the last ${tailCap} bytes of the Gemini transcript (a single record larger than the read cap).`,
      blank: () => `The Gemini transcript holds only whitespace: ${path}`,
      foreign: () => `This looks like a ${foreignName ?? 'another agent'} transcript, not a Gemini CLI recording: ${path}`,
      unknown: () => `No Gemini chat records found in ${path}${corrupt}.`,
    });
    return withReadStats(emptyTimeline('gemini', diagnostic), bytesRead, size);
  }
  const diagnostics = tailReadDiagnostics(tail);

  const reduced = reduceGeminiRecords(collection.records);
  const complete = collection.boundaryConfirmed || collection.resetReached || (tail.reachedStart && !tail.aborted);
  // Only the metadata line at the start of the file feeds the turn id: whether the tail window reaches
  // it (or a `$set.sessionId`) varies from read to read, the sniffed head does not.
  const sessionId = sniffedSessionId;
  const timeline = buildGeminiTimeline({
    messages: reduced.messages,
    ...(sessionId !== undefined ? { sessionId } : {}),
    checkpointPrefix: request.checkpointPrefix,
    ...(Array.isArray(request.deliveredDigests) ? { deliveredDigests: request.deliveredDigests } : {}),
    ...(request.checkpointMessages !== undefined ? { checkpointMessages: request.checkpointMessages } : {}),
    ...(request.hint?.prompt !== undefined ? { hintPrompt: request.hint.prompt } : {}),
    complete,
    rewritten: collection.resetReached && collection.records[0]?.kind === 'set',
  });
  const withSubagents = options.subagents === false ? timeline : addSubagentCalls(timeline, reduced.messages, sessionId, request, maxBytes);
  return withReadStats({ ...withSubagents, diagnostics: [...diagnostics, ...withSubagents.diagnostics] }, bytesRead, size);
}

/** Our checkpoints for this request: the session's delivery record when given, else the whole structure of a composed message. */
function ownCheckpoints(request: ReadTurnRequest): OwnCheckpoints {
  return ownCheckpointRule(request);
}

/**
 * The calls of the subagents invoked in the turn, merged by time. Their recordings share one byte
 * cap (the request's); a cut-short read makes the timeline `truncated`.
 */
function addSubagentCalls(
  timeline: TurnTimeline,
  messages: readonly GeminiMessage[],
  sessionId: string | undefined,
  request: ReadTurnRequest,
  maxBytes: number,
): TurnTimeline {
  if (!timeline.hasData) return timeline;
  const boundary = findGeminiTurnBoundary(messages, request.hint?.prompt, ownCheckpoints(request));
  const refs = findGeminiSubagentRefs(messages.slice(boundary.index !== undefined ? boundary.index + 1 : 0));
  if (refs.length === 0) return timeline;
  const read = readGeminiSubagents({
    transcriptPath: request.transcriptPath,
    sessionId,
    refs,
    maxBytes,
    knownCallIds: new Set(timeline.calls.map((call) => call.id)),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(typeof request.deadlineAt === 'number' ? { deadlineAt: request.deadlineAt } : {}),
  });
  return {
    ...timeline,
    calls: mergeCallsByTime(timeline.calls, read.calls),
    truncated: timeline.truncated || read.truncated,
    diagnostics: [...timeline.diagnostics, ...read.diagnostics],
  };
}

