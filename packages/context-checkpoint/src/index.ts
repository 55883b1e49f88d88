/**
 * @agent-checkpoint/context-checkpoint — the context checkpoint system (seeds 002–004), split out of
 * core: it plugs into core's turn-end pipeline through `TurnEndExtension` and owns every write beyond
 * core's state directory. Being populated (issue "One turn-end pipeline, a read-only core…").
 */
export * from './tracker/index.ts';
export * from './memory-service/index.ts';
export * from './estimate/index.ts';
export * from './shard/index.ts';
export * from './metrics/index.ts';
export * from './monitor/index.ts';
