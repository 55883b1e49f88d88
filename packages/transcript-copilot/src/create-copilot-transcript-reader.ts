import type { TranscriptReader } from '@agent-checkpoint/core';
import { locateCopilotTranscript } from './locate-copilot-transcript.ts';
import { readCopilotLatestUsage } from './read-copilot-latest-usage.ts';
import { readCopilotTurn, type ReadCopilotTurnOptions } from './read-copilot-turn.ts';

/** Options of {@link createCopilotTranscriptReader}. */
export type CopilotTranscriptReaderOptions = ReadCopilotTurnOptions;

/**
 * The {@link TranscriptReader} for GitHub Copilot CLI session logs
 * (`~/.copilot/session-state/<session id>/events.jsonl`). `flushWaitMs` is ignored: Copilot's log lags
 * behind its `agentStop` hook by more than a flush, and the hook waits for it before reading (the
 * profile's transcript wait, delivery-hook `copilot-profile.ts`).
 */
export function createCopilotTranscriptReader(options: CopilotTranscriptReaderOptions = {}): TranscriptReader {
  return {
    specificationVersion: 'transcript-reader-v1',
    agent: 'copilot',
    readTurn: async (request) => readCopilotTurn(request, options),
    locateTranscript: async (request) => locateCopilotTranscript(request),
    readLatestUsage: async (request) => readCopilotLatestUsage(request),
  };
}
