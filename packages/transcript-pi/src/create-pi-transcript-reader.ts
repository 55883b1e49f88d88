import type { TranscriptReader } from '@agent-checkpoint/core';
import { locatePiTranscript } from './locate-pi-transcript.ts';
import { readPiLatestUsage } from './read-pi-latest-usage.ts';
import { readPiTurn, type ReadPiTurnOptions } from './read-pi-turn.ts';

/** Options of {@link createPiTranscriptReader}. */
export type PiTranscriptReaderOptions = ReadPiTurnOptions;

/**
 * The {@link TranscriptReader} for Pi (`@mariozechner/pi-coding-agent` 0.73) session files:
 * JSON Lines with an entry tree (`id`/`parentId`), read backwards along the current branch to the
 * turn's prompt. Our follow-up messages are plain user messages: the delivery record, else the whole
 * structure of a composed message, tells them from a prompt the user typed with our prefix.
 */
export function createPiTranscriptReader(options: PiTranscriptReaderOptions = {}): TranscriptReader {
  return {
    specificationVersion: 'transcript-reader-v1',
    agent: 'pi',
    readTurn: async (request) => readPiTurn(request, options),
    locateTranscript: async (request) => locatePiTranscript(request),
    readLatestUsage: async (request) => readPiLatestUsage(request),
  };
}
