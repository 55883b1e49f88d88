// Handoff documents: render, write (never overwriting), find the latest, resume prompts.
export * from './agent-checkpoint-dir.ts';
export * from './handoff-types.ts';
export * from './clock-parts.ts';
export { renderHandoff, triggerLabel, gitStatusSummary, MAX_LISTED_COMMANDS, MAX_LISTED_FILES, type RenderHandoffOptions } from './render-handoff.ts';
export * from './failures-from-observations.ts';
export * from './memory-files.ts';
export * from './write-new-file.ts';
export * from './write-handoff.ts';
export * from './latest-handoff.ts';
export * from './render-resume.ts';
export * from './session-carry.ts';
