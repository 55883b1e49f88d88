import { statSync } from 'node:fs';
import { DEFAULT_TRANSCRIPT_MAX_BYTES, assertNever, emptyTimeline, mergeCallsByTime, ownCheckpointRule } from '@agent-checkpoint/core';
import type { ReadTurnRequest, TimelineDiagnostic, TurnTimeline } from '@agent-checkpoint/core';
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
  try {
    return readGeminiTurnUnsafe(request, options);
  } catch (error) {
    return emptyTimeline('gemini', {
      level: 'warn',
      code: 'read-failed',
      message: `Could not read the Gemini transcript ${request.transcriptPath}: ${describe(error)}`,
    });
  }
}

function readGeminiTurnUnsafe(request: ReadTurnRequest, options: ReadGeminiTurnOptions): TurnTimeline {
  const path = request.transcriptPath;
  const maxBytes = normalizeMaxBytes(request.maxBytes);
  if (request.signal?.aborted) {
    return emptyTimeline('gemini', { level: 'info', code: 'aborted', message: 'Reading was aborted before it started.' });
  }

  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) {
      return emptyTimeline('gemini', {
        level: 'warn',
        code: 'not-a-file',
        message: `The Gemini transcript path is not a regular file: ${path}`,
      });
    }
    size = stats.size;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return emptyTimeline('gemini', {
      level: 'warn',
      code: missing ? 'missing-file' : 'unreadable-file',
      message: missing ? `The Gemini transcript does not exist: ${path}` : `Cannot read the Gemini transcript ${path}: ${describe(error)}`,
    });
  }
  if (size === 0) {
    return withStats(emptyTimeline('gemini', { level: 'warn', code: 'empty-file', message: `The Gemini transcript is empty: ${path}` }), 0, 0);
  }

  // The sniff is charged to the cap when the tail read cannot cover it anyway.
  const sniffLength = size <= maxBytes ? Math.min(size, SNIFF_BYTES) : Math.min(SNIFF_BYTES, Math.floor(maxBytes / 8));
  const format =
    sniffLength > 0 ? sniffGeminiFile(path, sniffLength, sniffLength === size) : ({ format: 'jsonl' } as const);
  switch (format.format) {
    case 'binary':
      return withStats(noData('unknown-format', `Not a Gemini chat recording (binary data, not text): ${path}`), sniffLength, size);
    case 'blank':
      return withStats(noData('empty-file', `The Gemini transcript holds only whitespace: ${path}`), sniffLength, size);
    case 'not-json':
      return withStats(noData('unknown-format', `Not a Gemini chat recording (does not start with a JSON object): ${path}`), sniffLength, size);
    case 'legacy-json':
      return readLegacy({ request, options, path, size, maxBytes, sniffLength });
    case 'jsonl':
      return readJsonl({ request, options, path, size, maxBytes, sniffLength }, format.sessionId);
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
  readonly sniffLength: number;
}

function readLegacy({ request, path, size, maxBytes, sniffLength }: ReadContext): TurnTimeline {
  if (size > maxBytes) {
    return withStats(
      noData(
        'legacy-too-large',
        `The Gemini transcript is an older single-document recording of ${size} bytes, larger than the ${maxBytes}-byte read cap; it cannot be read without parsing it whole.`,
      ),
      sniffLength,
      size,
    );
  }
  if (typeof request.deadlineAt === 'number' && Date.now() >= request.deadlineAt) {
    return withStats(noData(...abortReason(true)), sniffLength, size);
  }
  const legacy = readGeminiLegacyJson(path);
  if (!legacy.ok) {
    return withStats(noData('legacy-parse-error', `The Gemini transcript looks like an older .json recording but is ${legacy.reason}.`), size, size);
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
  return withStats(
    { ...timeline, diagnostics: [{ level: 'info', code: 'legacy-format', message: 'Read an older single-document (.json) recording.' }, ...timeline.diagnostics] },
    size,
    size,
  );
}

function readJsonl({ request, options, path, size, maxBytes, sniffLength }: ReadContext, sniffedSessionId: string | undefined): TurnTimeline {
  const tailCap = size <= maxBytes ? maxBytes : maxBytes - sniffLength;
  const collection = collectGeminiTail(path, {
    maxBytes: tailCap,
    rule: primaryRule(
      request.hint?.prompt,
      ownCheckpoints(request),
    ),
    ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
    ...(request.signal !== undefined ? { signal: request.signal } : {}),
    ...(typeof request.deadlineAt === 'number' ? { deadlineAt: request.deadlineAt } : {}),
  });
  const { tail } = collection;
  // Distinct bytes read: the tail window plus whatever part of the sniffed head it did not cover.
  const bytesRead = tail.bytesRead + Math.max(0, Math.min(sniffLength, size - tail.bytesRead));
  const diagnostics: TimelineDiagnostic[] = [];

  // Cut short before a single Gemini record: nothing can be said about the file.
  if (collection.geminiLines === 0 && tail.aborted) return withStats(noData(...abortReason(tail.deadlineReached)), bytesRead, size);
  if (collection.geminiLines === 0) {
    const foreign = (Object.keys(collection.foreignLines) as ForeignAgent[]).sort(
      (a, b) => (collection.foreignLines[b] ?? 0) - (collection.foreignLines[a] ?? 0),
    )[0];
    if (foreign) {
      return withStats(noData('wrong-agent', `This looks like a ${FOREIGN_NAMES[foreign]} transcript, not a Gemini CLI recording: ${path}`), bytesRead, size);
    }
    if (tail.linesVisited === 0 && tail.capped) {
      return withStats(
        noData('cap-reached', `No complete line in the last ${tailCap} bytes of the Gemini transcript (a single record larger than the read cap).`),
        bytesRead,
        size,
      );
    }
    const corrupt = tail.corruptLines > 0 ? ` (${tail.corruptLines} unparseable line(s))` : '';
    return withStats(noData('unknown-format', `No Gemini chat records found in ${path}${corrupt}.`), bytesRead, size);
  }

  if (tail.corruptLines > 0) {
    diagnostics.push({
      level: 'info',
      code: 'corrupt-line',
      message: `Skipped ${tail.corruptLines} line(s) that were not valid JSON (a final line may still be being written).`,
    });
  }
  if (tail.aborted) {
    const [code, message] = abortReason(tail.deadlineReached);
    diagnostics.push({ level: 'warn', code, message });
  }

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
  return withStats({ ...withSubagents, diagnostics: [...diagnostics, ...withSubagents.diagnostics] }, bytesRead, size);
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

/** The diagnostic of a read cut short: by the caller's signal, or by the hook's deadline while parsing. */
function abortReason(deadlineReached: boolean): [code: string, message: string] {
  return deadlineReached
    ? ['deadline', "The hook's deadline passed while reading; the timeline may be incomplete."]
    : ['aborted', 'Reading was aborted; the timeline may be incomplete.'];
}

function noData(code: string, message: string): TurnTimeline {
  return emptyTimeline('gemini', { level: 'warn', code, message });
}

function withStats(timeline: TurnTimeline, bytesRead: number, fileBytes: number): TurnTimeline {
  return { ...timeline, readStats: { bytesRead, fileBytes } };
}

function normalizeMaxBytes(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value) || value < 0) return DEFAULT_TRANSCRIPT_MAX_BYTES;
  return Math.floor(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
