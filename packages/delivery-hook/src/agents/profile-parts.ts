import type { HookVerdict } from '../hook-verdict.ts';
import type { HookEntrySpec } from '../install/hook-entry-spec.ts';

/**
 * Small pieces more than one profile uses. Pure and light: profiles are on the hook's hot path.
 */

/**
 * A SessionStart answer adding `context` to the session: `hookSpecificOutput.additionalContext`.
 * Claude Code and Codex CLI read it with `hookEventName: "SessionStart"` (Codex 0.169 requires that
 * key and allows no other); Gemini CLI reads the same field and ignores `hookEventName`.
 */
export function additionalContextOutput(context: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } });
}

/**
 * A prompt hook's answer adding `context` to the prompt: `hookSpecificOutput.additionalContext` with
 * the event's name (Claude Code and Codex CLI: `UserPromptSubmit`; Gemini CLI: `BeforeAgent`, whose
 * `hookEventName` it ignores and whose text it prepends as `<hook_context>`).
 */
export function promptContextOutput(hookEventName: 'UserPromptSubmit' | 'BeforeAgent'): (context: string) => string {
  return (context) => JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: context } });
}

/**
 * A context answer as a top-level `{"additionalContext": C}`: Copilot CLI's (it ignores
 * `hookSpecificOutput`) and our Pi extension's (it appends C to the tool result or sends it beside the prompt).
 */
export function topLevelContextOutput(context: string): string {
  return JSON.stringify({ additionalContext: context });
}

/** The handler of agents that count `timeout` in seconds and need no name (Claude Code, Codex CLI). */
export function secondsHandler(entry: HookEntrySpec, command: string): Record<string, unknown> {
  return { type: 'command', command, timeout: entry.timeoutSeconds };
}

/**
 * A turn-end answer in the shape all three agents share: a bare pass is empty stdout; a block is
 * `{"decision":<blockWord>,"reason":R}`; a notice for the user rides along as `systemMessage` (a pass
 * with a notice is `{"systemMessage":N}` alone, which every agent reads as "allow" — no `decision`).
 */
export function turnEndOutput(verdict: HookVerdict, blockWord: 'block' | 'deny'): string {
  const notice = verdict.notice === undefined ? {} : { systemMessage: verdict.notice };
  if (verdict.kind === 'block') return JSON.stringify({ decision: blockWord, reason: verdict.reason, ...notice });
  return verdict.notice === undefined ? '' : JSON.stringify(notice);
}
