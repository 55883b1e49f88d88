// Loop runners (seed 004, Ralph section): the loop-state file and the steps that read and write it.
export * from './loop-state.ts';
export * from './loop-steps.ts';
export * from './loop-next-item.ts';
export * from './autonomous-mode.ts';
