// Checkpoint state of multi-phase commands (seed 002): phases, resume points, 500-token summaries.
export * from './token-counter.ts';
export * from './checkpoint-schema.ts';
export * from './checkpoint-store.ts';
export * from './handoff-protocol.ts';
