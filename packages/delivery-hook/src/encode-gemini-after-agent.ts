import type { HookVerdict } from './hook-verdict.ts';

/**
 * Gemini CLI `AfterAgent`: `{"decision":"deny","reason":R}` rejects the answer and sends R, verbatim,
 * to the model as a new user message in the same prompt. Nothing on stdout (and nothing on stderr,
 * which Gemini would show as a system message) lets the turn end.
 */
export function encodeGeminiAfterAgent(verdict: HookVerdict): string {
  return verdict.kind === 'block' ? JSON.stringify({ decision: 'deny', reason: verdict.reason }) : '';
}
