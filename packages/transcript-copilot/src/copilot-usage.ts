import type { TokenUsage } from '@agent-checkpoint/core';

/** What one `session.usage_record` says: the usage, and whether a subagent's call spent it. */
export interface CopilotUsageRecord {
  readonly usage: TokenUsage;
  /** `initiator: "sub-agent"`: the subagent's own context, not the session's. */
  readonly subagent: boolean;
}

/**
 * The usage of a `session.usage_record` event's `data` (`{usage: {model, inputTokens, outputTokens,
 * cacheReadTokens, cacheWriteTokens, initiator…}}`). The one extraction both the turn read and the
 * latest-usage tail read use; plain checks, no schema library: the monitor's bundle loads it.
 */
export function copilotUsageOf(data: unknown, timestamp: string | undefined): CopilotUsageRecord | undefined {
  const usage = field(data, 'usage');
  const input = count(field(usage, 'inputTokens'));
  if (input === undefined) return undefined;
  const output = count(field(usage, 'outputTokens'));
  const model = field(usage, 'model');
  return {
    usage: {
      // The prompt side of the call: fresh input plus what the provider read from or wrote to its cache.
      contextTokens: input + (count(field(usage, 'cacheReadTokens')) ?? 0) + (count(field(usage, 'cacheWriteTokens')) ?? 0),
      ...(output === undefined ? {} : { outputTokens: output }),
      ...(typeof model === 'string' && model !== '' ? { model } : {}),
      ...(timestamp === undefined ? {} : { timestamp }),
    },
    subagent: field(usage, 'initiator') === 'sub-agent',
  };
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
