export { createCodexTranscriptReader } from './create-codex-transcript-reader.ts';
