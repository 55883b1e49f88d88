import { forModelText, forTerminal, type AgentId } from '@agent-checkpoint/core/hot-path';
import { profileOf } from './agents/profiles.ts';
import type { HookVerdict } from './hook-verdict.ts';

/**
 * The exact stdout for `agent` (its profile's encoder): empty for a bare pass, one JSON object
 * otherwise. Every reason passes `forModelText` here, the one boundary all block reasons cross
 * (checkpoint, commit gate, context, generic): no control character from a file name, an output
 * excerpt or a configured text reaches the model. Every user notice passes `forTerminal` (it is
 * shown in the agent's terminal UI and may quote a path or a parser message).
 */
export function encodeHookOutput(agent: AgentId, raw: HookVerdict): string {
  const notice = raw.notice === undefined || raw.notice.trim() === '' ? undefined : forTerminal(raw.notice);
  const verdict: HookVerdict =
    raw.kind === 'block'
      ? { kind: 'block', reason: forModelText(raw.reason), ...(notice === undefined ? {} : { notice }) }
      : { kind: 'pass', ...(notice === undefined ? {} : { notice }) };
  return profileOf(agent).encodeTurnEnd(verdict);
}
