import type { ResolvedConfig, TurnEndExtension } from '@agent-checkpoint/core';
import { wantsContextCheckpoint } from './wants-context-checkpoint.ts';

/**
 * The package's manifest for routes (subpath `@agent-checkpoint/context-checkpoint/load`): the
 * turn-end extensions this configuration asks for, as a route passes them to core's pipeline
 * (`TurnEndEvent.extensions`, `CheckpointRequest.extensions`). Only type imports here: with nothing
 * configured it returns `[]` and no feature module is evaluated; otherwise it `import()`s the
 * extension (the hook's test run, then the context step).
 */
export async function loadTurnEndExtensions(config: ResolvedConfig): Promise<readonly TurnEndExtension[]> {
  if (!wantsContextCheckpoint(config)) return [];
  const { contextCheckpointExtension } = await import('./extensions/context-checkpoint-extension.ts');
  return [contextCheckpointExtension as TurnEndExtension];
}
