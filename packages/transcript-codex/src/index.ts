export { createCodexTranscriptReader, type CodexTranscriptReaderOptions } from './create-codex-transcript-reader.ts';
