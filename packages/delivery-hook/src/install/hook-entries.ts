import type { AgentId } from '@agent-checkpoint/core';

/**
 * One hook we register with an agent: the event, the arguments after `node <bundle>`, and the
 * agent-native timeout. The installer works from this list only, so registering another event
 * (SessionStart, PreCompact…) is one more entry here — install, uninstall, `--print`, `--dry-run`
 * and `doctor` all follow.
 */
export interface HookEntrySpec {
  /** The agent's own event name (`Stop`, `AfterAgent`…). */
  readonly event: string;
  /** Arguments after the bundle path, e.g. `["claude"]`. */
  readonly args: readonly string[];
  /** Gemini requires a name per hook; shown in its UI and warnings. */
  readonly name: string;
  /**
   * How long the agent waits before it kills the hook. Generous on purpose: an agent that kills a
   * hook just proceeds (the checkpoint is lost silently); the hook's own deadline (8 s) is shorter.
   */
  readonly timeoutSeconds: number;
  /**
   * An opt-in feature the entry belongs to: installed only when asked for (`--with-context`).
   * Uninstall always removes every entry of ours, whatever the feature.
   */
  readonly feature?: 'context';
}

/**
 * The hooks `install` registers, per agent: the turn-end checkpoint, plus the context-checkpoint
 * hooks (handoff on SessionStart and before compaction; docs/context-checkpoints.md) with
 * `--with-context`.
 */
export const OUR_HOOK_ENTRIES: Readonly<Record<AgentId, readonly HookEntrySpec[]>> = {
  claude: [
    { event: 'Stop', args: ['claude'], name: 'agent-checkpoint', timeoutSeconds: 30 },
    { event: 'SessionStart', args: ['session-start', 'claude'], name: 'agent-checkpoint-session-start', timeoutSeconds: 30, feature: 'context' },
    { event: 'PreCompact', args: ['pre-compact', 'claude'], name: 'agent-checkpoint-pre-compact', timeoutSeconds: 30, feature: 'context' },
  ],
  gemini: [
    { event: 'AfterAgent', args: ['gemini'], name: 'agent-checkpoint', timeoutSeconds: 30 },
    { event: 'SessionStart', args: ['session-start', 'gemini'], name: 'agent-checkpoint-session-start', timeoutSeconds: 30, feature: 'context' },
    { event: 'PreCompress', args: ['pre-compact', 'gemini'], name: 'agent-checkpoint-pre-compact', timeoutSeconds: 30, feature: 'context' },
  ],
  codex: [
    { event: 'Stop', args: ['codex'], name: 'agent-checkpoint', timeoutSeconds: 30 },
    { event: 'SessionStart', args: ['session-start', 'codex'], name: 'agent-checkpoint-session-start', timeoutSeconds: 30, feature: 'context' },
    { event: 'PreCompact', args: ['pre-compact', 'codex'], name: 'agent-checkpoint-pre-compact', timeoutSeconds: 30, feature: 'context' },
  ],
};

/** The entries to install: the default ones, plus those of the features asked for. */
export function entriesToInstall(agent: AgentId, features: readonly 'context'[]): HookEntrySpec[] {
  return OUR_HOOK_ENTRIES[agent].filter((e) => e.feature === undefined || features.includes(e.feature));
}

/** The product name of each agent, for people. */
export const AGENT_TITLES: Readonly<Record<AgentId, string>> = {
  claude: 'Claude Code',
  gemini: 'Gemini CLI',
  codex: 'Codex CLI',
};
