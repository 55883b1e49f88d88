import type { AgentId } from '@agent-checkpoint/core/hot-path';
import type { AgentProfile, PluginRoute } from './agent-profile.ts';
import { claudeProfile } from './claude-profile.ts';
import { codexProfile } from './codex-profile.ts';
import { geminiProfile } from './gemini-profile.ts';
import { piProfile } from './pi-profile.ts';

/**
 * The profile of every agent. A `Record` over `AgentId`: a new agent id does not compile until its
 * profile is here. Everything outside `src/agents/` asks these objects instead of branching on the
 * agent (`no-agent-switch.test.ts`).
 */
export const AGENT_PROFILES: Readonly<Record<AgentId, AgentProfile>> = {
  claude: claudeProfile,
  gemini: geminiProfile,
  codex: codexProfile,
  pi: piProfile,
};

/** The profile of `agent`. */
export function profileOf(agent: AgentId): AgentProfile {
  return AGENT_PROFILES[agent];
}

/** The profile of the agent whose own install (plugin, extension) is of route `kind`. */
export function profileOfPluginRoute(kind: PluginRoute['kind']): AgentProfile & { readonly pluginRoute: PluginRoute } {
  for (const profile of Object.values(AGENT_PROFILES)) {
    const route = profile.pluginRoute;
    if (route?.kind === kind) return { ...profile, pluginRoute: route };
  }
  throw new Error(`no agent profile has the plugin route ${kind}`);
}
