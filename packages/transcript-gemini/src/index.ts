export { createGeminiTranscriptReader } from './create-gemini-transcript-reader.ts';
