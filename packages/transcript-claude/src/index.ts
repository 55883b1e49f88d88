export { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
export {
  DEFAULT_FLUSH_POLL_MS,
  DEFAULT_FLUSH_WAIT_MS,
  type ClaudeReaderOptions,
} from './read-claude-turn.ts';
export type { ExcerptBudget } from './build-claude-tool-call.ts';
export { mapClaudeToolName } from './map-claude-tool-name.ts';
export { claudeConfigDir, claudeProjectSlug, locateClaudeTranscript } from './locate-claude-transcript.ts';
export { readClaudeLatestUsage } from './read-claude-latest-usage.ts';
