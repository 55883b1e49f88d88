// Context monitoring: levels and growth from the transcript's token usage. Pure, no I/O.
export * from './model-context-windows.ts';
export * from './read-context-level.ts';
export * from './estimate-context-growth.ts';
export * from './render-context-line.ts';
export * from './decide-context-action.ts';
