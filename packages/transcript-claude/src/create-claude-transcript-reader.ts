import type { TranscriptReader } from '@agent-checkpoint/core';
import { locateClaudeTranscript } from './locate-claude-transcript.ts';
import { readClaudeLatestUsage } from './read-claude-latest-usage.ts';
import { readClaudeTurn, type ClaudeReaderOptions } from './read-claude-turn.ts';

/**
 * The {@link TranscriptReader} for Claude Code (2.1.x JSONL transcripts under
 * `~/.claude/projects/<slug>/<session>.jsonl`).
 *
 * ```ts
 * const reader = createClaudeTranscriptReader();
 * const timeline = await reader.readTurn({
 *   transcriptPath: payload.transcript_path,
 *   hint: { turnId: payload.prompt_id, lastAssistantMessage: payload.last_assistant_message },
 *   checkpointPrefix: config.message.prefix,
 * });
 * ```
 */
export function createClaudeTranscriptReader(options: ClaudeReaderOptions = {}): TranscriptReader {
  return {
    specificationVersion: 'transcript-reader-v1',
    agent: 'claude',
    readTurn: (request) => readClaudeTurn(request, options),
    locateTranscript: (request) => locateClaudeTranscript(request),
    // Synchronous underneath (one bounded tail read); a promise for the interface.
    readLatestUsage: (request) => Promise.resolve(readClaudeLatestUsage(request)),
  };
}
