import { assertNever, type AgentId } from '@agent-checkpoint/core/hot-path';
import { encodeClaudeStop } from './encode-claude-stop.ts';
import { encodeCodexStop } from './encode-codex-stop.ts';
import { encodeGeminiAfterAgent } from './encode-gemini-after-agent.ts';
import type { HookVerdict } from './hook-verdict.ts';

/** The exact stdout for `agent`: empty for a pass, one JSON object for a block. */
export function encodeHookOutput(agent: AgentId, verdict: HookVerdict): string {
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
