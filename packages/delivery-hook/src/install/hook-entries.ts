import type { AgentId } from '@agent-checkpoint/core';
import { AGENT_PROFILES, profileOf } from '../agents/profiles.ts';
import type { HookEntrySpec } from './hook-entry-spec.ts';

/** The entries to install for `agent` (its profile's list): the default ones, plus those of the features asked for. */
export function entriesToInstall(agent: AgentId, features: readonly 'context'[]): HookEntrySpec[] {
  return profileOf(agent).hookEntries.filter((e) => e.feature === undefined || features.includes(e.feature));
}

/** Every entry of every agent: what an install of ours may have written (recognising our handlers). */
export function allHookEntries(): HookEntrySpec[] {
  return Object.values(AGENT_PROFILES).flatMap((p) => p.hookEntries);
}
