export { createCopilotTranscriptReader } from './create-copilot-transcript-reader.ts';
export { copilotHomeDir } from './locate-copilot-transcript.ts';
