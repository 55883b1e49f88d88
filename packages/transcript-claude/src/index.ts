export { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
// Where Claude Code keeps its transcripts: delivery-hook's Claude profile finds the newest one for `explain`.
export { claudeConfigDir, claudeProjectSlug } from './locate-claude-transcript.ts';
// The monitor's gate bundle reads the newest usage record without the whole reader (delivery-hook post-tool).
