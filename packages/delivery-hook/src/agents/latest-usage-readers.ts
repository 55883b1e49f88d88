import type { AgentId, LatestUsage, ReadLatestUsageRequest } from '@agent-checkpoint/core';
import { readClaudeLatestUsage } from '@agent-checkpoint/transcript-claude';
import { readCodexLatestUsage } from '@agent-checkpoint/transcript-codex';
import { readGeminiLatestUsage } from '@agent-checkpoint/transcript-gemini';

/**
 * Each agent's tail reader of the newest usage record (MON-001), for the monitor after every tool
 * call. Beside the profiles rather than in them: the profiles load the whole transcript reader, the
 * monitor's decide bundle only these tail readers.
 */
export const LATEST_USAGE_READERS: Readonly<Record<AgentId, (request: ReadLatestUsageRequest) => LatestUsage | undefined>> = {
  claude: readClaudeLatestUsage,
  gemini: readGeminiLatestUsage,
  codex: readCodexLatestUsage,
};
