import { runPreCompactHook } from '@agent-checkpoint/context-checkpoint';
import { encodeContextDecision, openContextPayload } from '../aux-hook/open-context-payload.ts';
import type { AuxHookContext, AuxHookResult } from '../aux-hook/run-aux-hook.ts';

/**
 * `agent-checkpoint-hook pre-compact <agent>`: the payload becomes the context package's
 * `runPreCompactHook` event. Stdout stays empty for every agent: the hook never alters a compaction.
 */
export async function runPreCompact(text: string, context: AuxHookContext): Promise<AuxHookResult> {
  const opened = openContextPayload('pre-compact', text, context);
  if (opened.kind === 'done') return opened.result;
  const { trigger, transcriptPath } = opened.event;
  const decision = await runPreCompactHook({ ...(trigger !== undefined ? { trigger } : {}), ...(transcriptPath !== undefined ? { transcriptPath } : {}) }, opened.run);
  return encodeContextDecision(decision, () => '');
}
