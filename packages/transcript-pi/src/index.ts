export { createPiTranscriptReader } from './create-pi-transcript-reader.ts';
// The monitor's gate bundle reads the newest usage record without the whole reader (delivery-hook post-tool).
