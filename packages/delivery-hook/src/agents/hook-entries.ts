import type { AgentId } from '@agent-checkpoint/core/hot-path';
import type { HookEntrySpec } from '../install/hook-entry-spec.ts';

// Each agent's hook entries: which of its events `install` registers, and for which hook mode (the
// entry's first argument, or the agent id for the turn-end entry). The one place an agent's event
// names are written: its profile's `hookEntries` is its list below, and the hooks accept a payload's
// `hook_event_name` only when the agent's entries register that event for their mode
// ({@link answersHookEvent}), so no adapter names an event (no-agent-switch.test.ts).
//
// Their own module, not in the profiles: the monitor, which checks the event after every tool call,
// must not load the profiles (zod, the payload schemas; post-tool/monitor-bundles.test.ts). One module
// for all agents rather than one per agent: every module is initialised on every turn end, which
// imports each profile (launcher/hot-path-modules.test.ts counts them). Plain data, no imports but types.

/** Claude Code's hooks (`claudeProfile.hookEntries`). */
export const CLAUDE_HOOK_ENTRIES: readonly HookEntrySpec[] = [
  { event: 'Stop', args: ['claude'], name: 'agent-checkpoint', timeoutSeconds: 30 },
  { event: 'SessionStart', args: ['session-start', 'claude'], name: 'agent-checkpoint-session-start', timeoutSeconds: 30, feature: 'context' },
  { event: 'PreCompact', args: ['pre-compact', 'claude'], name: 'agent-checkpoint-pre-compact', timeoutSeconds: 30, feature: 'context' },
  // The monitor during the turn (docs/context-checkpoints.md, "Monitor"): after every tool call, a small bundle.
  { event: 'PostToolUse', args: ['post-tool', 'claude'], name: 'agent-checkpoint-monitor', timeoutSeconds: 30, feature: 'context' },
  { event: 'UserPromptSubmit', args: ['prompt-submit', 'claude'], name: 'agent-checkpoint-prompt-submit', timeoutSeconds: 30, feature: 'context' },
];

/** Gemini CLI's hooks (`geminiProfile.hookEntries`). */
export const GEMINI_HOOK_ENTRIES: readonly HookEntrySpec[] = [
  { event: 'AfterAgent', args: ['gemini'], name: 'agent-checkpoint', timeoutSeconds: 30 },
  { event: 'SessionStart', args: ['session-start', 'gemini'], name: 'agent-checkpoint-session-start', timeoutSeconds: 30, feature: 'context' },
  { event: 'PreCompress', args: ['pre-compact', 'gemini'], name: 'agent-checkpoint-pre-compact', timeoutSeconds: 30, feature: 'context' },
  // The monitor during the turn (docs/context-checkpoints.md, "Monitor"): after every tool call, a small bundle.
  { event: 'AfterTool', args: ['post-tool', 'gemini'], name: 'agent-checkpoint-monitor', timeoutSeconds: 30, feature: 'context' },
  { event: 'BeforeAgent', args: ['prompt-submit', 'gemini'], name: 'agent-checkpoint-prompt-submit', timeoutSeconds: 30, feature: 'context' },
];

/** Codex CLI's hooks (`codexProfile.hookEntries`). */
export const CODEX_HOOK_ENTRIES: readonly HookEntrySpec[] = [
  { event: 'Stop', args: ['codex'], name: 'agent-checkpoint', timeoutSeconds: 30 },
  { event: 'SessionStart', args: ['session-start', 'codex'], name: 'agent-checkpoint-session-start', timeoutSeconds: 30, feature: 'context' },
  { event: 'PreCompact', args: ['pre-compact', 'codex'], name: 'agent-checkpoint-pre-compact', timeoutSeconds: 30, feature: 'context' },
  // The monitor during the turn (docs/context-checkpoints.md, "Monitor"): after every tool call, a small bundle.
  { event: 'PostToolUse', args: ['post-tool', 'codex'], name: 'agent-checkpoint-monitor', timeoutSeconds: 30, feature: 'context' },
  { event: 'UserPromptSubmit', args: ['prompt-submit', 'codex'], name: 'agent-checkpoint-prompt-submit', timeoutSeconds: 30, feature: 'context' },
];

/** GitHub Copilot CLI's hooks (`copilotProfile.hookEntries`). */
export const COPILOT_HOOK_ENTRIES: readonly HookEntrySpec[] = [
  { event: 'agentStop', args: ['copilot'], name: 'agent-checkpoint', timeoutSeconds: 30 },
  { event: 'sessionStart', args: ['session-start', 'copilot'], name: 'agent-checkpoint-session-start', timeoutSeconds: 30, feature: 'context' },
  // Fires before an automatic compaction too (past ~128k estimated tokens), with the log's path; the log
  // may lag behind the session there, as at agentStop, so the handoff covers what it holds.
  { event: 'preCompact', args: ['pre-compact', 'copilot'], name: 'agent-checkpoint-pre-compact', timeoutSeconds: 30, feature: 'context' },
  // The monitor after every tool call. 1.0.102 appends a top-level `additionalContext` to the tool's result
  // ("Additional guidance from postToolUse hooks"); a failed file tool fires only postToolUseFailure, whose
  // `additionalContext` reaches the model as a user message. Neither shows `systemMessage` to the user in
  // `copilot -p` (encode-post-tool-output.ts puts the user's line into the context).
  { event: 'postToolUse', args: ['post-tool', 'copilot'], name: 'agent-checkpoint-monitor', timeoutSeconds: 30, feature: 'context' },
  { event: 'postToolUseFailure', args: ['post-tool', 'copilot'], name: 'agent-checkpoint-monitor-failure', timeoutSeconds: 30, feature: 'context' },
  // Once per user prompt (not per model request, unlike Qwen Code's UserPromptSubmit), and once more for
  // each agentStop block reason, which comes back as a queued prompt that no payload field tells apart:
  // ours is recognised (isOwnCheckpoint), another hook's reason is estimated like a prompt.
  { event: 'userPromptSubmitted', args: ['prompt-submit', 'copilot'], name: 'agent-checkpoint-prompt-submit', timeoutSeconds: 30, feature: 'context' },
];

/** Qwen Code's hooks (`qwenProfile.hookEntries`). */
export const QWEN_HOOK_ENTRIES: readonly HookEntrySpec[] = [
  { event: 'Stop', args: ['qwen'], name: 'agent-checkpoint', timeoutSeconds: 30 },
  { event: 'SessionStart', args: ['session-start', 'qwen'], name: 'agent-checkpoint-session-start', timeoutSeconds: 30, feature: 'context' },
  { event: 'PreCompact', args: ['pre-compact', 'qwen'], name: 'agent-checkpoint-pre-compact', timeoutSeconds: 30, feature: 'context' },
  // The monitor after every tool call: a failing call fires PostToolUseFailure, not PostToolUse (checked with 0.24.4).
  { event: 'PostToolUse', args: ['post-tool', 'qwen'], name: 'agent-checkpoint-monitor', timeoutSeconds: 30, feature: 'context' },
  { event: 'PostToolUseFailure', args: ['post-tool', 'qwen'], name: 'agent-checkpoint-monitor-failure', timeoutSeconds: 30, feature: 'context' },
  // 0.24.4 fires UserPromptSubmit before every model request of a turn: readQwenContextPayload keeps the user's.
  { event: 'UserPromptSubmit', args: ['prompt-submit', 'qwen'], name: 'agent-checkpoint-prompt-submit', timeoutSeconds: 30, feature: 'context' },
];

/** Pi's hooks (`piProfile.hookEntries`). */
export const PI_HOOK_ENTRIES: readonly HookEntrySpec[] = [
  { event: 'turn_end', args: ['pi'], name: 'agent-checkpoint', timeoutSeconds: 60 },
  { event: 'session_start', args: ['session-start', 'pi'], name: 'agent-checkpoint-session-start', timeoutSeconds: 30, feature: 'context' },
  // Fires before `/compact` and Pi's own compaction; the extension never cancels it.
  { event: 'session_before_compact', args: ['pre-compact', 'pi'], name: 'agent-checkpoint-pre-compact', timeoutSeconds: 30, feature: 'context' },
  // The monitor after every tool call, failed ones included (`isError`): its context is appended to the tool's result.
  { event: 'tool_result', args: ['post-tool', 'pi'], name: 'agent-checkpoint-monitor', timeoutSeconds: 30, feature: 'context' },
  // Once per submitted prompt (a follow-up the turn end queues does not start a new agent run).
  { event: 'before_agent_start', args: ['prompt-submit', 'pi'], name: 'agent-checkpoint-prompt-submit', timeoutSeconds: 30, feature: 'context' },
];

/** Every agent's hook entries; a `Record` over `AgentId`, so a new agent does not compile without its list. */
export const HOOK_ENTRIES: Readonly<Record<AgentId, readonly HookEntrySpec[]>> = {
  claude: CLAUDE_HOOK_ENTRIES,
  gemini: GEMINI_HOOK_ENTRIES,
  codex: CODEX_HOOK_ENTRIES,
  copilot: COPILOT_HOOK_ENTRIES,
  qwen: QWEN_HOOK_ENTRIES,
  pi: PI_HOOK_ENTRIES,
};

/** The hook modes that read an agent event from the payload (hook-modes.ts names them; hook-entries.test.ts checks). */
export type EventHookMode = 'session-start' | 'pre-compact' | 'prompt-submit' | 'post-tool';

/**
 * Whether `eventName` (a payload's `hook_event_name`) is an event `entries` register for `mode`: the
 * hook answers it; any other is a misrouted entry (another hook's event) and is ignored.
 */
export function answersHookEvent(entries: readonly HookEntrySpec[], mode: EventHookMode, eventName: string): boolean {
  return entries.some((entry) => entry.args[0] === mode && entry.event === eventName);
}
