// Direct checkpoint execution (opt-in): handoff + memory-file section + WIP commit, without the agent.
export * from './checkpoint-log.ts';
export * from './last-session-section.ts';
export * from './resolve-memory-file.ts';
export * from './execute-checkpoint.ts';
export * from './render-direct-result.ts';
