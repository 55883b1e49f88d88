import type { ResolvedConfig } from '@agent-checkpoint/core';

/** True when the configuration turns on an end-of-turn feature of this package (`runTests`, `context.enabled`). */
export function wantsContextCheckpoint(config: ResolvedConfig): boolean {
  return config.runTests !== undefined || config.context?.enabled === true;
}
