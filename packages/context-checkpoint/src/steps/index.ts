// The end-of-turn context step and the resume handoff of SessionStart hooks (opt-in).
export * from './run-context-step.ts';
export * from './resume-handoff.ts';
export * from './pre-compact-handoff.ts';
export * from './prompt-estimate.ts';
export * from './pending-estimate.ts';
