/**
 * `@agent-checkpoint/context-checkpoint/monitor`: what the monitor after every tool call needs to decide
 * (the context reading, its growth, the decision), without the package root. Bundled from the root, the
 * monitor's decide part carried zod, picomatch and core's config presets (178 KB) for a decision that
 * uses none of them, and paid their parse after every tool call (docs/benchmarks.md, "The monitor").
 */
export { decideMonitorAction } from './monitor/decide-monitor-action.ts';
export type { MonitorAction, MonitorDeferral } from './monitor/monitor-action.ts';
export { claimMark, lowerMarks, monitorMarksDir, readMarks } from './monitor/level-marks.ts';
export { estimateContextGrowth } from './context/estimate-context-growth.ts';
export { implausibleUsage, readContextLevel } from './context/read-context-level.ts';
export { readPendingTaskBand } from './estimate/pending-estimate-file.ts';
// The monitor hook itself, route-neutral (the off switches, the reading, the decision, the claim).
export { runMonitorHook, type MonitorActingAction, type MonitorHookDecision, type MonitorHookRun } from './monitor/monitor-hook.ts';
export type { MonitorSession } from './monitor/open-monitor-hook.ts';
