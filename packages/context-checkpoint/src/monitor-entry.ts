/**
 * `@agent-checkpoint/context-checkpoint/monitor`: the monitor after every tool call once context
 * checkpoints are on (the off switches, the context reading, its growth, the decision, the claim of the
 * level), without the package root. Bundled from the root, the monitor's decide part carried zod,
 * picomatch and core's config presets (178 KB) for a decision that uses none of them, and paid their
 * parse after every tool call (docs/benchmarks.md, "The monitor").
 */
export { runMonitorHook, type MonitorActingAction, type MonitorHookDecision } from './monitor/monitor-hook.ts';
export type { MonitorSession } from './monitor/open-monitor-hook.ts';
export type { CheckpointStateSnapshot } from './state/session-slots.ts';
