import type { ResolvedConfig } from '@agent-checkpoint/core';
import { contextCheckpointConfigOf, runTestsConfigOf } from './config/context-config.ts';

/** True when the configuration turns on an end-of-turn feature of this package (`runTests`, `context.enabled`). */
export function wantsContextCheckpoint(config: ResolvedConfig): boolean {
  return runTestsConfigOf(config) !== undefined || contextCheckpointConfigOf(config).context.enabled;
}
