import type { AgentId } from '@agent-checkpoint/core';
import type { PluginRouteKind } from '../plugin-route-kind.ts';

/** Where the marketplace (or extension source) the install came from lives. */
export type PluginSource =
  /** A folder on this machine the agent reads the plugin from, or updates from (`path`); `present` false: moved or deleted. */
  | { readonly kind: 'local-path'; readonly path: string; readonly present: boolean }
  /** A git repository URL (cloned by the agent; survives the clone moving). */
  | { readonly kind: 'git'; readonly url: string }
  /** Anything else the agent records (a GitHub `owner/repo`, a URL to a marketplace file…). */
  | { readonly kind: 'other'; readonly description: string };

/** One plugin or extension install of ours, as the agent records it. */
export interface PluginInstall {
  readonly agent: AgentId;
  /** How the agent names it: `agent-checkpoint@<marketplace>` (Claude, Codex), `agent-checkpoint` (Gemini). */
  readonly id: string;
  readonly form: PluginRouteKind;
  /** Whether the agent runs its hooks (installed and enabled). */
  readonly enabled: boolean;
  /** The hook bin its hook commands start (may not exist: see {@link PluginInstall.binPresent}). */
  readonly bin: string;
  readonly binPresent: boolean;
  readonly source: PluginSource;
  /** The agent's marketplace name (Claude, Codex). */
  readonly marketplace?: string;
  /** The agent's command that removes this install. */
  readonly removeCommand: string;
  /** The agent's command that re-adds the marketplace or extension from a repository URL (`<git-url>` to fill in). */
  readonly readdCommand: string;
}
