import type { TranscriptReader } from '@agent-checkpoint/core';
import { locateQwenTranscript } from './locate-qwen-transcript.ts';
import { readQwenLatestUsage } from './read-qwen-latest-usage.ts';
import { readQwenTurn, type ReadQwenTurnOptions } from './read-qwen-turn.ts';

/** Options of {@link createQwenTranscriptReader}. */
export type QwenTranscriptReaderOptions = ReadQwenTurnOptions;

/**
 * The {@link TranscriptReader} for Qwen Code chat recordings
 * (`~/.qwen/projects/<cwd slug>/chats/<session>.jsonl`). `readTurn` never rejects and reads
 * backwards within `maxBytes`; `flushWaitMs` is ignored (the CLI appends each record before the Stop
 * hook runs). `locateTranscript` finds a session's file from its id and cwd.
 */
export function createQwenTranscriptReader(options: QwenTranscriptReaderOptions = {}): TranscriptReader {
  return {
    specificationVersion: 'transcript-reader-v1',
    agent: 'qwen',
    readTurn: async (request) => readQwenTurn(request, options),
    locateTranscript: async (request) => locateQwenTranscript(request),
    readLatestUsage: async (request) => readQwenLatestUsage(request),
  };
}
