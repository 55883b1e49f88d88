// Task estimator (seed 004, EST-001..004): deterministic context-cost estimates from the prompt, the
// plan and the project's own history, with accuracy tracking.
export * from './parse-plan-items.ts';
export * from './task-features.ts';
export * from './baseline-model.ts';
export * from './estimate-task.ts';
export * from './estimate-accuracy.ts';
export * from './task-history.ts';
export * from './render-estimate.ts';
