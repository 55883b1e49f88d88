/**
 * Default hard cap on bytes read from the end of a transcript (seed 000: 512 KiB). A leaf module: the
 * config schema quotes it and the transcript reader's contract names it.
 */
export const DEFAULT_TRANSCRIPT_MAX_BYTES = 512 * 1024;
