import type { TaskEstimate } from './estimate-task.ts';

/**
 * The warning shown at prompt submit (EST-002, EST-003; seed scenario "Task Estimation Warning"), or
 * undefined when the task is small and fits. Says the size, what remains, and the options: shard,
 * checkpoint first, or proceed anyway.
 */
export function renderEstimateWarning(estimate: TaskEstimate): string | undefined {
  const size = `This task is estimated at ~${Math.round(estimate.percentOfWindow)} % of the context window (~${kTokens(estimate.tokens)} tokens)`;
  const left = `~${Math.round(estimate.remainingPercent)} % (~${kTokens(estimate.remainingTokens)} tokens) remain`;
  switch (estimate.recommendation) {
    case 'proceed':
      return undefined;
    case 'consider-sharding':
      return `${size}; ${left}. Consider sharding it into smaller tasks.`;
    case 'checkpoint-first':
      return `${size}, more than the ${left.replace(' remain', ' that remain')}. It may not fit: shard it, or checkpoint first and start it in a fresh session; or proceed anyway.`;
    case 'shard-first':
      return `${size}; ${left}. Tasks over 60 % should be sharded before starting: split it into shards (one per session), or proceed anyway.`;
    default: {
      const never: never = estimate.recommendation;
      return never;
    }
  }
}

function kTokens(tokens: number): string {
  return tokens >= 10_000 ? `${Math.round(tokens / 1000)}k` : tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
}
