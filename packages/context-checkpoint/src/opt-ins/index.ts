// Seed 001 opt-ins (off by default): the hook's own test run and the uncommitted-changes gate.
export * from './run-tests.ts';
export * from './apply-test-run.ts';
export * from './commit-gate.ts';
export * from './decide-commit-gate.ts';
