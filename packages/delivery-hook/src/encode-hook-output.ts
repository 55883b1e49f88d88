import { forModelText, type AgentId } from '@agent-checkpoint/core/hot-path';
import { profileOf } from './agents/profiles.ts';
import type { HookVerdict } from './hook-verdict.ts';

/**
 * The exact stdout for `agent` (its profile's encoder): empty for a pass, one JSON object for a
 * block. Every reason passes `forModelText` here, the one boundary all block reasons cross
 * (checkpoint, commit gate, context, generic): no control character from a file name, an output
 * excerpt or a configured text reaches the model.
 */
export function encodeHookOutput(agent: AgentId, raw: HookVerdict): string {
  const verdict: HookVerdict = raw.kind === 'block' ? { kind: 'block', reason: forModelText(raw.reason) } : raw;
  return profileOf(agent).encodeTurnEnd(verdict);
}
