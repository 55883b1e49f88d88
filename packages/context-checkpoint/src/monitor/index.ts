// The monitor during the turn (issue 14 point 1: MON-001..004, RLP-002): what to do after a tool call.
export * from './monitor-config.ts';
export * from './monitor-action.ts';
export * from './forecast-next-level.ts';
export * from './render-monitor-alert.ts';
export * from './decide-monitor-action.ts';
export * from './level-marks.ts';
