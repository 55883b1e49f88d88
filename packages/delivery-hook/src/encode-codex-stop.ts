import type { HookVerdict } from './hook-verdict.ts';

/**
 * Codex CLI `Stop`: `{"decision":"block","reason":R}` continues the same turn with R (XML-escaped by
 * Codex) inside a `<hook_prompt>` user message. Allow is **empty stdout**: Codex rejects
 * `"decision":"approve"` as invalid stop hook output.
 */
export function encodeCodexStop(verdict: HookVerdict): string {
  return verdict.kind === 'block' ? JSON.stringify({ decision: 'block', reason: verdict.reason }) : '';
}
