import type { AgentId } from '@agent-checkpoint/core/hot-path';
import type { AgentProfile, PluginRoute } from './agent-profile.ts';
import { claudeProfile } from './claude-profile.ts';
import { codexProfile } from './codex-profile.ts';
import { copilotProfile } from './copilot-profile.ts';
import { geminiProfile } from './gemini-profile.ts';
import { piProfile } from './pi-profile.ts';
import { qwenProfile } from './qwen-profile.ts';

/**
 * The profile of every agent. A `Record` over `AgentId`: a new agent id does not compile until its
 * profile is here. Everything outside `src/agents/` asks these objects instead of branching on the
 * agent (`no-agent-switch.test.ts`).
 */
export const AGENT_PROFILES: Readonly<Record<AgentId, AgentProfile>> = {
  claude: claudeProfile,
  gemini: geminiProfile,
  codex: codexProfile,
  copilot: copilotProfile,
  qwen: qwenProfile,
  pi: piProfile,
};

/** The profile of `agent`. */
export function profileOf(agent: AgentId): AgentProfile {
  return AGENT_PROFILES[agent];
}

/** The plugin route of kind `kind` (the profile of the agent whose own install is of that form). */
export function pluginRouteOfKind(kind: PluginRoute['kind']): PluginRoute {
  const route = Object.values(AGENT_PROFILES).find((p) => p.pluginRoute?.kind === kind)?.pluginRoute;
  if (route === undefined) throw new Error(`no agent profile has the plugin route ${kind}`);
  return route;
}
