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
}

/** The hooks `install` registers, per agent. */
export const OUR_HOOK_ENTRIES: Readonly<Record<AgentId, readonly HookEntrySpec[]>> = {
  claude: [{ event: 'Stop', args: ['claude'], name: 'agent-checkpoint', timeoutSeconds: 30 }],
  gemini: [{ event: 'AfterAgent', args: ['gemini'], name: 'agent-checkpoint', timeoutSeconds: 30 }],
  codex: [{ event: 'Stop', args: ['codex'], name: 'agent-checkpoint', timeoutSeconds: 30 }],
};

/** The product name of each agent, for people. */
export const AGENT_TITLES: Readonly<Record<AgentId, string>> = {
  claude: 'Claude Code',
  gemini: 'Gemini CLI',
  codex: 'Codex CLI',
};
