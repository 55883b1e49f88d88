export { createCodexTranscriptReader, type CodexTranscriptReaderOptions } from './create-codex-transcript-reader.ts';
export { readCodexLatestUsage } from './read-codex-latest-usage.ts';
