export { createGeminiTranscriptReader } from './create-gemini-transcript-reader.ts';
// The monitor's gate bundle reads the newest usage record without the whole reader (delivery-hook post-tool).
