import { readJsonlTail } from '@agent-checkpoint/core';
import type { JsonlTailResult } from '@agent-checkpoint/core';
import type { ForeignAgent, GeminiMessage, GeminiRecord } from './gemini-record.ts';
import { classifyGeminiRecord, GEMINI_MESSAGE_TYPES } from './gemini-record.ts';
import type { BoundaryRule } from './gemini-turn-rules.ts';
import { isResetPoint, reduceGeminiRecords } from './reduce-gemini-records.ts';

/** Options of {@link collectGeminiTail}. */
export interface CollectGeminiTailOptions {
  readonly maxBytes: number;
  readonly chunkBytes?: number;
  /** The rule that recognises the turn boundary (hint or fallback). */
  readonly rule: BoundaryRule;
  readonly signal?: AbortSignal;
  /** Refuse a symbolic link (for files named by untrusted input: subagent recordings). */
  readonly noFollow?: boolean;
  /** Parsing stops past this time (`Date.now()` clock, ms); see `ReadTurnRequest.deadlineAt`. */
  readonly deadlineAt?: number;
}

/** The records needed to rebuild the end of the message list, oldest first, and how they were found. */
export interface GeminiTailCollection {
  readonly records: readonly GeminiRecord[];
  readonly tail: JsonlTailResult;
  /** The read ended at a `$set.messages` (or metadata `messages`) line: nothing older matters. */
  readonly resetReached: boolean;
  /** The read ended at a message that is the turn boundary in the reduced list. */
  readonly boundaryConfirmed: boolean;
  /** Lines that were Gemini records (metadata, `$set`, `$rewindTo`, messages of a Gemini type). */
  readonly geminiLines: number;
  /** Lines recognised as another agent's transcript. */
  readonly foreignLines: Readonly<Partial<Record<ForeignAgent, number>>>;
}

/**
 * Read a 0.61 JSONL recording backwards (core's {@link readJsonlTail}, bounded by `maxBytes`) and keep
 * the records that shape the end of the message list, until the turn boundary is established:
 *
 * - a `$set.messages` line resets the list, so nothing older can matter: stop there (the boundary may
 *   be inside that list, which the forward replay then finds);
 * - a message whose **final** copy (the newest, seen first when reading backwards) satisfies the rule
 *   is the boundary, provided no later `$rewindTo` removes it. Without a rewind in the collected lines
 *   nothing can, so stop at once; otherwise replay the collected lines forward and stop only if the
 *   boundary survives (a rewind to an id we have not seen removes every message we have seen, since
 *   the target is older or unknown).
 *
 * Stopping at the boundary assumes its first copy is the one met there and that no message from
 * before the boundary is re-appended after it. 0.61 writes a user prompt once and only re-appends the
 * message it is currently updating (always the last one), so both hold for real recordings.
 */
export function collectGeminiTail(path: string, options: CollectGeminiTailOptions): GeminiTailCollection {
  const collected: GeminiRecord[] = []; // newest first
  const finalById = new Map<string, GeminiMessage>();
  const foreignLines: Partial<Record<ForeignAgent, number>> = {};
  let geminiLines = 0;
  let rewinds = 0;
  let resetReached = false;
  let boundaryConfirmed = false;

  const confirms = (): boolean => {
    if (rewinds === 0) return true;
    const replay = reduceGeminiRecords([...collected].reverse());
    return replay.messages.some(options.rule.isBoundary);
  };

  const tail = readJsonlTail(path, {
    maxBytes: options.maxBytes,
    ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.noFollow === true ? { noFollow: true } : {}),
    ...(typeof options.deadlineAt === 'number' ? { deadlineAt: options.deadlineAt } : {}),
    visit: (entry) => {
      const record = classifyGeminiRecord(entry);
      if (record.kind === 'unknown') {
        if (record.foreign) foreignLines[record.foreign] = (foreignLines[record.foreign] ?? 0) + 1;
        return 'continue';
      }
      // A message of a type Gemini never writes is kept (the turn builder ignores it) but is no
      // evidence of the format: another agent's lines can have the `{id, type}` shape.
      if (record.kind !== 'message' || GEMINI_MESSAGE_TYPES.has(record.message.type)) geminiLines += 1;
      // Metadata-only `$set` lines (`lastUpdated`) carry nothing the timeline needs.
      if (record.kind === 'set' && record.messages === undefined && record.sessionId === undefined) return 'continue';
      collected.push(record);
      if (isResetPoint(record)) {
        resetReached = true;
        return 'stop';
      }
      if (record.kind === 'rewind') {
        rewinds += 1;
        return 'continue';
      }
      if (record.kind !== 'message') return 'continue';
      const message = record.message;
      if (!finalById.has(message.id)) finalById.set(message.id, message);
      const final = finalById.get(message.id) ?? message;
      if (options.rule.isBoundary(final) && confirms()) {
        boundaryConfirmed = true;
        return 'stop';
      }
      return 'continue';
    },
  });

  return {
    records: collected.reverse(),
    tail,
    resetReached,
    boundaryConfirmed,
    geminiLines,
    foreignLines,
  };
}
