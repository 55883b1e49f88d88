/**
 * claude-mem integration (seed 004, MEM-001..006): a client of claude-mem's local worker HTTP API and
 * the PROMPT.md section that tells a resumed iteration which memory queries to run.
 */
export * from './memory-result.ts';
export * from './claude-mem-worker-url.ts';
export * from './checkpoint-observation.ts';
export * from './claude-mem-client.ts';
export * from './memory-resume-prompt.ts';
