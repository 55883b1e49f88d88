export { createGeminiTranscriptReader } from './create-gemini-transcript-reader.ts';
export type { GeminiTranscriptReaderOptions } from './create-gemini-transcript-reader.ts';
export { readGeminiLatestUsage } from './read-gemini-latest-usage.ts';
