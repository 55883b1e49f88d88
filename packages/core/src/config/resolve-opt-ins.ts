import type { CommitGateConfig, ResolvedCommitGateConfig, ResolvedRunTestsConfig, RunTestsConfig } from '../config/config-schema.ts';

/** Default time limit of the hook's test run. */
export const DEFAULT_RUN_TESTS_TIMEOUT_MS = 60_000;

/**
 * `runTests` after merging: present only when enabled (the default once an object is given) and a
 * command is set. Off by default: the defaults and presets never set it.
 */
export function resolveRunTests(merged: RunTestsConfig | undefined): ResolvedRunTestsConfig | undefined {
  if (merged === undefined || merged.enabled === false || merged.command === undefined) return undefined;
  return {
    command: merged.command,
    timeoutMs: merged.timeoutMs ?? DEFAULT_RUN_TESTS_TIMEOUT_MS,
    ...(merged.when !== undefined ? { when: [...merged.when] } : {}),
  };
}

/** `commitGate` after merging: present only when enabled (the default once an object is given). */
export function resolveCommitGate(merged: CommitGateConfig | undefined): ResolvedCommitGateConfig | undefined {
  if (merged === undefined || merged.enabled === false) return undefined;
  return merged.when !== undefined ? { when: [...merged.when] } : {};
}
