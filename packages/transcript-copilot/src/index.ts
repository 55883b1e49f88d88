export { createCopilotTranscriptReader } from './create-copilot-transcript-reader.ts';
