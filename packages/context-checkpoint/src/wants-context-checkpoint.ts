import type { ResolvedConfig } from '@agent-checkpoint/core';
import { contextCheckpointConfigOf, runTestsConfigOf } from './config/context-config.ts';

/**
 * True when the configuration turns on an end-of-turn feature of this package (`runTests`,
 * `context.enabled`, or `handoff.enabled`: a resumed handoff's outcome is settled at a turn end).
 */
export function wantsContextCheckpoint(config: ResolvedConfig): boolean {
  const cc = contextCheckpointConfigOf(config);
  return runTestsConfigOf(config) !== undefined || cc.context.enabled || cc.handoff.enabled;
}
