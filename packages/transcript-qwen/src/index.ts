export { createQwenTranscriptReader } from './create-qwen-transcript-reader.ts';
// Where sessions live, for delivery-hook's `explain`/`doctor` lookup of the newest transcript.
export { qwenProjectSlug, qwenRuntimeDir } from './locate-qwen-transcript.ts';
