// Success metrics (seed 004): a bounded per-project JSONL log in the state directory and its report.
export * from './project-key.ts';
export * from './jsonl-log.ts';
export * from './metrics-events.ts';
export * from './build-report.ts';
export * from './render-report.ts';
export * from './record-metric.ts';
