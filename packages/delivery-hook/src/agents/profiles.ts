import type { AgentId } from '@agent-checkpoint/core/hot-path';
import type { AgentProfile, PluginRoute } from './agent-profile.ts';
import { claudeProfile } from './claude-profile.ts';
import { codexProfile } from './codex-profile.ts';
import { geminiProfile } from './gemini-profile.ts';

/**
 * The profile of every agent. A `Record` over `AgentId`: a new agent id does not compile until its
 * profile is here. Everything outside `src/agents/` asks these objects instead of branching on the
 * agent (`no-agent-switch.test.ts`).
 */
export const AGENT_PROFILES: Readonly<Record<AgentId, AgentProfile>> = {
  claude: claudeProfile,
  gemini: geminiProfile,
  codex: codexProfile,
};

/** The profile of `agent`. */
export function profileOf(agent: AgentId): AgentProfile {
  return AGENT_PROFILES[agent];
}

/** The profile of the agent whose own install (plugin, extension) is of route `kind`. */
export function profileOfPluginRoute(kind: PluginRoute['kind']): AgentProfile {
  const profile = Object.values(AGENT_PROFILES).find((p) => p.pluginRoute.kind === kind);
  if (profile === undefined) throw new Error(`no agent profile has the plugin route ${kind}`);
  return profile;
}
