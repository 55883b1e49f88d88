import type { ConfigSectionSource, ResolvedConfig, TurnEndExtension } from '@agent-checkpoint/core';
import { ALL_SECTION_KEYS } from './config/context-config.ts';
import { wantsContextCheckpoint } from './wants-context-checkpoint.ts';

/**
 * The package's config sections (`context`, `handoff`, `directExecution`, `runTests`, `commitGate`),
 * for routes to pass to core's config loading (`LoadConfigOptions.sections`,
 * `TurnEndEvent.configSections`). The keys are static; the section module (zod schemas, resolvers)
 * is imported only when a configuration file sets one of them.
 */
export const contextCheckpointSections: ConfigSectionSource = {
  keys: ALL_SECTION_KEYS,
  load: async (present) => (await import('./config/context-sections.ts')).sectionsFor(present),
};

/**
 * The package's manifest for routes (subpath `@agent-checkpoint/context-checkpoint/load`): the
 * turn-end extensions this configuration asks for, as a route passes them to core's pipeline
 * (`TurnEndEvent.extensions`, `CheckpointRequest.extensions`), and the config sections above. No
 * feature module is evaluated here (type imports from core; the section keys and zod-free
 * accessors): with nothing configured it returns `[]`; otherwise it `import()`s the extension (the
 * hook's test run, then the context step).
 */
export async function loadTurnEndExtensions(config: ResolvedConfig): Promise<readonly TurnEndExtension[]> {
  if (!wantsContextCheckpoint(config)) return [];
  const { contextCheckpointExtension } = await import('./extensions/context-checkpoint-extension.ts');
  return [contextCheckpointExtension as TurnEndExtension];
}

export { commitGateConfigOf, contextCheckpointConfigOf, handoffServicesOf, memorySettingsOf, runTestsConfigOf, trackerSettingsOf } from './config/context-config.ts';

// The commit gate's route-facing parts that are cheap: arming it with a granted block, and the flag
// the escape-hatch stop checks (one `stat`). Its decision on a later stop is the root's `runCommitGateAtStop`.
export { commitGateClaim } from './commit-gate/commit-gate-claim.ts';
export { isCommitGateMarked } from './commit-gate/commit-gate-marker.ts';
