import { assertNever, forModelText, type AgentId } from '@agent-checkpoint/core/hot-path';
import { encodeClaudeStop } from './encode-claude-stop.ts';
import { encodeCodexStop } from './encode-codex-stop.ts';
import { encodeGeminiAfterAgent } from './encode-gemini-after-agent.ts';
import type { HookVerdict } from './hook-verdict.ts';

/**
 * The exact stdout for `agent`: empty for a pass, one JSON object for a block. Every reason passes
 * `forModelText` here, the one boundary all block reasons cross (checkpoint, commit gate, context,
 * generic): no control character from a file name, an output excerpt or a configured text reaches
 * the model.
 */
export function encodeHookOutput(agent: AgentId, raw: HookVerdict): string {
  const verdict: HookVerdict = raw.kind === 'block' ? { kind: 'block', reason: forModelText(raw.reason) } : raw;
  switch (agent) {
    case 'claude':
      return encodeClaudeStop(verdict);
    case 'gemini':
      return encodeGeminiAfterAgent(verdict);
    case 'codex':
      return encodeCodexStop(verdict);
    default:
      return assertNever(agent);
  }
}
