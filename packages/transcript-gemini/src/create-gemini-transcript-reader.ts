import type { TranscriptReader } from '@agent-checkpoint/core';
import { locateGeminiTranscript } from './locate-gemini-transcript.ts';
import { readGeminiLatestUsage } from './read-gemini-latest-usage.ts';
import { readGeminiTurn } from './read-gemini-turn.ts';
import type { ReadGeminiTurnOptions } from './read-gemini-turn.ts';

/** Options of {@link createGeminiTranscriptReader}. */
export type GeminiTranscriptReaderOptions = ReadGeminiTurnOptions;

/**
 * The {@link TranscriptReader} for Gemini CLI chat recordings: 0.61 JSON Lines
 * (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) and the older single-document `.json`.
 *
 * - `readTurn` never rejects; it reads backwards from the end of the file within `maxBytes`, applies
 *   `$set`/`$rewindTo`/re-appended messages, finds the turn from `hint.prompt` (the AfterAgent
 *   payload's `prompt`) or else the last genuine user prompt, and counts our own checkpoints (block
 *   reasons are recorded as ordinary user messages). `flushWaitMs` is ignored: the CLI appends
 *   synchronously, so the file is complete when AfterAgent runs.
 * - `locateTranscript` finds a session's file from its id (see {@link locateGeminiTranscript}).
 */
export function createGeminiTranscriptReader(options: GeminiTranscriptReaderOptions = {}): TranscriptReader {
  return {
    specificationVersion: 'transcript-reader-v1',
    agent: 'gemini',
    readTurn: async (request) => readGeminiTurn(request, options),
    locateTranscript: async (request) => locateGeminiTranscript(request),
    // Synchronous underneath (one bounded tail read); never throws.
    readLatestUsage: async (request) => readGeminiLatestUsage(request),
  };
}
