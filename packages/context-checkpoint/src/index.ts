/**
 * @agent-checkpoint/context-checkpoint — the context checkpoint system (seeds 002–004), split out of
 * core: context levels, handoffs, direct execution (memory file, WIP commit), the checkpoint store,
 * the hook's own test run and the commit gate. It plugs into core's turn-end pipeline through
 * `TurnEndExtension` (after the decision) and owns every write beyond core's state directory.
 * Routes load it through the `./load` subpath, which imports nothing unless a feature is configured.
 */
export { testRunExtension } from './extensions/test-run-extension.ts';
export { contextCheckpointExtension } from './extensions/context-checkpoint-extension.ts';
export { loadTurnEndExtensions, wantsContextCheckpoint } from './load-turn-end-extensions.ts';
export type { ContextCheckpointDetail } from './extensions/context-checkpoint-extension.ts';
export * from './context/index.ts';
export * from './handoff/index.ts';
export * from './direct/index.ts';
export * from './checkpoint-state/index.ts';
export * from './state/session-context.ts';
export * from './state/claim-commit-gate.ts';
export * from './opt-ins/index.ts';
export * from './steps/index.ts';
export * from './tracker/index.ts';
export * from './memory-service/index.ts';
export * from './estimate/index.ts';
export * from './shard/index.ts';
export * from './metrics/index.ts';
export * from './monitor/index.ts';
