/**
 * claude-mem integration (seed 004, MEM-001..006): a client of claude-mem's local worker HTTP API and
 * the PROMPT.md section that tells a resumed iteration which memory queries to run. The client itself
 * is loaded lazily by `openClaudeMemClient` (only its types are re-exported here).
 */
export * from './memory-result.ts';
export * from './claude-mem-worker-url.ts';
export * from './checkpoint-observation.ts';
export type { CheckpointHit, ClaudeMemClient, ClaudeMemClientOptions } from './claude-mem-client.ts';
export * from './open-claude-mem-client.ts';
export * from './memory-resume-prompt.ts';
