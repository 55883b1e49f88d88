export * from './scenario.ts';
export * from './scenario-schema.ts';
export * from './select-step.ts';
export * from './request-log.ts';
export * from './mock-server.ts';
export { formatApplyPatch, toClaudeCalls, toCodexCalls, toGeminiCalls } from './native-tool-calls.ts';
