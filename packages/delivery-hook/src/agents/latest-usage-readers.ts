import type { AgentId } from '@agent-checkpoint/core/hot-path';
import type { LatestUsage, ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import { readClaudeLatestUsage } from '@agent-checkpoint/transcript-claude/latest-usage';
import { readCodexLatestUsage } from '@agent-checkpoint/transcript-codex/latest-usage';
import { readCopilotLatestUsage } from '@agent-checkpoint/transcript-copilot/latest-usage';
import { readGeminiLatestUsage } from '@agent-checkpoint/transcript-gemini/latest-usage';
import { readPiLatestUsage } from '@agent-checkpoint/transcript-pi/latest-usage';
import { readQwenLatestUsage } from '@agent-checkpoint/transcript-qwen/latest-usage';

/**
 * Each agent's tail reader of the newest usage record (MON-001), for the monitor after every tool
 * call. Beside the profiles rather than in them: the profiles load the whole transcript reader, the
 * monitor's decide bundle only these tail readers.
 */
export const LATEST_USAGE_READERS: Readonly<Record<AgentId, (request: ReadLatestUsageRequest) => LatestUsage | undefined>> = {
  claude: readClaudeLatestUsage,
  gemini: readGeminiLatestUsage,
  codex: readCodexLatestUsage,
  copilot: readCopilotLatestUsage,
  qwen: readQwenLatestUsage,
  pi: readPiLatestUsage,
};
