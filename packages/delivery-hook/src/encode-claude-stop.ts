import type { HookVerdict } from './hook-verdict.ts';

/**
 * Claude Code `Stop`: `{"decision":"block","reason":R}` on stdout with exit 0 continues the turn; the
 * model receives `Stop hook feedback:\nR` as a user message. Nothing on stdout lets the stop pass.
 * (Not `hookSpecificOutput.additionalContext`: that also continues the turn, but is not counted as a
 * block, so `stop_hook_active` would not latch.)
 */
export function encodeClaudeStop(verdict: HookVerdict): string {
  return verdict.kind === 'block' ? JSON.stringify({ decision: 'block', reason: verdict.reason }) : '';
}
