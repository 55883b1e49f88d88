import type { AgentId } from '@agent-checkpoint/core';
import { profileOf } from '../agents/profiles.ts';
import { installRouteOf, userCommandsOf } from '../route-commands.ts';
import type { TurnEndNotice } from '../agents/agent-profile.ts';

/**
 * The notice for a running hook whose install source is gone while the hook still runs (its profile's
 * `pluginRoute.installSourceNotice`; today only a Codex plugin from a local marketplace, which Codex
 * keeps running from its cached copy).
 *
 * Where the source vanishing stops our hooks, no notice is possible, and doctor is the only report:
 * a Claude Code plugin from a folder marketplace is read from that folder ("failed to load:
 * cache-miss"), a Gemini CLI extension made with `extensions link` runs from the linked folder.
 */
export async function installSourceNotice(agent: AgentId, bin: string | undefined, env: Readonly<Record<string, string | undefined>>): Promise<TurnEndNotice | undefined> {
  // It names doctor as this plugin's user runs it (the plugin's own tool: nothing of it is on a PATH).
  return bin === undefined ? undefined : profileOf(agent).pluginRoute?.installSourceNotice(bin, userCommandsOf(installRouteOf(agent, env)).doctor);
}
