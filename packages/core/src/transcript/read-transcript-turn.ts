import type { AgentId } from '../agent-id.ts';
import { assertNever } from '../timeline/tool-call.ts';
import { emptyTimeline, type TurnTimeline } from '../timeline/turn-timeline.ts';
import { NotARegularFileError } from './read-jsonl-tail.ts';
import { errnoCode, errorReason, transcriptFileState, type TranscriptFileState } from './transcript-file-state.ts';
import { DEFAULT_TRANSCRIPT_MAX_BYTES, type ReadTurnRequest } from './transcript-reader.ts';

/**
 * How a reader names its transcript in the diagnostics of the shared prologue
 * ({@link readTranscriptTurn}). The codes are the same for every reader (`missing-file`,
 * `not-a-file`, `empty-file`, `unreadable-file`); only the words are the agent's.
 * {@link transcriptWording} builds the usual ones from the file's name.
 */
export interface TranscriptWording {
  /** `missing-file` when the request names no path at all. */
  readonly noPath: string;
  /** `missing-file`: nothing at `path` (`reason` is the system error). */
  readonly missing: (path: string, reason: string) => string;
  /** `not-a-file`: a directory, FIFO, socket or device. */
  readonly notAFile: (path: string) => string;
  /** `empty-file`: zero bytes. */
  readonly empty: (path: string) => string;
  /** `unreadable-file`: any other failure to stat, open or read it. */
  readonly unreadable: (path: string, reason: string) => string;
}

/** The usual {@link TranscriptWording} of a transcript called `name` ("Copilot session log"). */
export function transcriptWording(name: string): TranscriptWording {
  return {
    noPath: 'No transcript path was given.',
    missing: (path) => `The ${name} does not exist: ${path}`,
    notAFile: (path) => `The ${name} path is not a regular file: ${path}`,
    empty: (path) => `The ${name} is empty: ${path}`,
    unreadable: (path, reason) => `Could not read the ${name} ${path}: ${reason}`,
  };
}

/** The bounds of a request as `readJsonlTail` takes them (spread them into its options). */
export interface TurnReadBounds {
  /** The request's byte cap, sanitised ({@link transcriptMaxBytes}). */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
  readonly deadlineAt?: number;
}

/** What the prologue hands a reader's format logic: a non-empty regular file and the request's bounds. */
export interface TranscriptTurnFile {
  readonly path: string;
  /** Size when the prologue looked (the file may have grown since: the tail read sees its own size). */
  readonly size: number;
  /** The request's byte cap, sanitised ({@link transcriptMaxBytes}); also in {@link bounds}. */
  readonly maxBytes: number;
  readonly bounds: TurnReadBounds;
}

/** Who is reading: the agent of every timeline the prologue returns, and its words. */
export interface TranscriptTurnReader {
  readonly agent: AgentId;
  readonly wording: TranscriptWording;
}

/** The prologue's answer: read the file, or the timeline that says why there is nothing to read. */
export type TranscriptTurnStart = { readonly kind: 'read'; readonly file: TranscriptTurnFile } | { readonly kind: 'done'; readonly timeline: TurnTimeline };

/**
 * The checks every `readTurn` makes before it reads: a request aborted before the read says
 * `aborted` (info); a path that is missing, not a regular file (never opened: a FIFO would block),
 * empty or unreadable gives a no-data timeline with the shared code (an empty file with `readStats`
 * 0/0). Never throws. {@link readTranscriptTurn} wraps it; a reader that re-reads (Claude, waiting
 * for a lagging write) calls it before each read.
 */
export function startTranscriptTurn(request: ReadTurnRequest, reader: TranscriptTurnReader): TranscriptTurnStart {
  if (request.signal?.aborted) return { kind: 'done', timeline: emptyTimeline(reader.agent, { level: 'info', code: 'aborted', message: 'Reading was aborted before it started.' }) };
  const state = transcriptFileState(request.transcriptPath);
  if (state.kind !== 'file') return { kind: 'done', timeline: transcriptFileProblem(reader, state) };
  const maxBytes = transcriptMaxBytes(request.maxBytes);
  const bounds: TurnReadBounds = {
    maxBytes,
    ...(request.signal !== undefined ? { signal: request.signal } : {}),
    ...(typeof request.deadlineAt === 'number' ? { deadlineAt: request.deadlineAt } : {}),
  };
  return { kind: 'read', file: { path: state.path, size: state.size, maxBytes, bounds } };
}

/**
 * The prologue every synchronous `readTurn` shares, around the reader's format logic `read`
 * ({@link startTranscriptTurn}, then `read`); anything `read` throws (the file swapped for a FIFO or
 * removed after the `stat`, an I/O error, a bug) becomes a no-data timeline too
 * ({@link transcriptReadFailure}). Never throws, so `read` may.
 */
export function readTranscriptTurn(request: ReadTurnRequest, reader: TranscriptTurnReader, read: (file: TranscriptTurnFile) => TurnTimeline): TurnTimeline {
  try {
    const start = startTranscriptTurn(request, reader);
    return start.kind === 'done' ? start.timeline : read(start.file);
  } catch (error) {
    return transcriptReadFailure(reader, request.transcriptPath, error);
  }
}

/** The no-data timeline of a path with nothing to read (every {@link TranscriptFileState} but `file`). */
function transcriptFileProblem(reader: TranscriptTurnReader, state: Exclude<TranscriptFileState, { kind: 'file' }>): TurnTimeline {
  const { agent, wording } = reader;
  switch (state.kind) {
    case 'no-path':
      return noTurnData(agent, 'missing-file', wording.noPath);
    case 'missing':
      return noTurnData(agent, 'missing-file', wording.missing(state.path, state.reason));
    case 'not-a-file':
      return noTurnData(agent, 'not-a-file', wording.notAFile(state.path));
    case 'empty':
      return withReadStats(noTurnData(agent, 'empty-file', wording.empty(state.path)), 0, 0);
    case 'unreadable':
      return noTurnData(agent, 'unreadable-file', wording.unreadable(state.path, state.reason));
    default:
      return assertNever(state);
  }
}

/**
 * The no-data timeline of an error thrown while reading a file that was fine when `stat`ed: a
 * FIFO or directory put in its place (`not-a-file`), the file removed (`missing-file`), else
 * `unreadable-file`.
 */
export function transcriptReadFailure(reader: TranscriptTurnReader, path: string, error: unknown): TurnTimeline {
  const { agent, wording } = reader;
  const reason = errorReason(error);
  if (typeof path !== 'string' || path.length === 0) return noTurnData(agent, 'missing-file', wording.noPath);
  if (error instanceof NotARegularFileError) return noTurnData(agent, 'not-a-file', wording.notAFile(path));
  if (errnoCode(error) === 'ENOENT') return noTurnData(agent, 'missing-file', wording.missing(path, reason));
  return noTurnData(agent, 'unreadable-file', wording.unreadable(path, reason));
}

/** A timeline without data whose one diagnostic, a warning, says why. */
export function noTurnData(agent: AgentId, code: string, message: string): TurnTimeline {
  return emptyTimeline(agent, { level: 'warn', code, message });
}

/** `timeline` with the bytes read of a file of `fileBytes` bytes. */
export function withReadStats(timeline: TurnTimeline, bytesRead: number, fileBytes: number): TurnTimeline {
  return { ...timeline, readStats: { bytesRead, fileBytes } };
}

/**
 * The byte cap of a request (untrusted input): a missing, negative or non-finite cap takes
 * {@link DEFAULT_TRANSCRIPT_MAX_BYTES}; a fraction is floored.
 */
export function transcriptMaxBytes(value: number | undefined): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return DEFAULT_TRANSCRIPT_MAX_BYTES;
  return Math.floor(value);
}
