export { createQwenTranscriptReader } from './create-qwen-transcript-reader.ts';
// Where sessions live, for delivery-hook's `explain`/`doctor` lookups and its settings paths.
export { qwenHomeDir, qwenProjectSlug, qwenRuntimeDir } from './locate-qwen-transcript.ts';
