/**
 * One hook we register with an agent: the event, the arguments after `node <bundle>`, and the
 * agent-native timeout. The installer works from the profiles' lists only (`src/agents/`), so
 * registering another event (SessionStart, PreCompact…) is one more entry there — install,
 * uninstall, `--print`, `--dry-run` and `doctor` all follow.
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
