import type { TokenUsage } from '@agent-checkpoint/core';
import { estimateContextGrowth } from '../context/estimate-context-growth.ts';
import { appendJsonlLine, readJsonlLog, type AppendJsonlResult, type JsonlLogLocation, type ReadJsonlLogResult } from '../metrics/jsonl-log.ts';
import { projectKey } from '../metrics/project-key.ts';
import type { TaskHistorySample } from './task-history-schema.ts';

// Type only: the schema (and zod) loads lazily, see task-history-schema.ts.
export type { TaskHistorySample } from './task-history-schema.ts';

/** Cap of a project's history file: 256 KiB, ~1,500 samples (the estimator uses the newest {@link MAX_HISTORY_SAMPLES}). */
export const TASK_HISTORY_MAX_BYTES = 256 * 1024;

/** Where a project's task history lives. */
export interface TaskHistoryOptions {
  readonly stateDir: string;
  readonly projectRoot: string;
  readonly maxBytes?: number;
}

/** `estimates/<project key>.jsonl` in the state directory. */
export function taskHistoryLocation(options: Pick<TaskHistoryOptions, 'stateDir' | 'projectRoot'>): JsonlLogLocation {
  return { stateDir: options.stateDir, relPath: `estimates/${projectKey(options.projectRoot)}.jsonl` };
}

/**
 * Record a finished turn (EST-004): its features, the estimate made at prompt submit and the tokens it
 * actually used ({@link actualTurnTokens}). Validated before writing. Throws as `appendJsonlLine`.
 */
export async function recordTaskOutcome(options: TaskHistoryOptions, sample: TaskHistorySample): Promise<AppendJsonlResult> {
  const { TaskHistorySampleSchema } = await import('./task-history-schema.ts');
  return appendJsonlLine(taskHistoryLocation(options), TaskHistorySampleSchema.parse(sample), options.maxBytes ?? TASK_HISTORY_MAX_BYTES);
}

/** The project's history, oldest first; invalid lines skipped and counted. Never throws. */
export async function readTaskHistory(options: TaskHistoryOptions): Promise<ReadJsonlLogResult<TaskHistorySample>> {
  const { TaskHistorySampleSchema } = await import('./task-history-schema.ts');
  return readJsonlLog(taskHistoryLocation(options), TaskHistorySampleSchema, options.maxBytes ?? TASK_HISTORY_MAX_BYTES);
}

/**
 * Tokens a turn actually added to the context, from the transcript's usage records at turn end: the
 * latest record minus the last one before the turn started (core's `estimateContextGrowth`
 * `tokensThisTurn`). Undefined when the records cannot place the turn (no timestamps, none in the
 * turn), or when the context was compacted during the turn (the growth is then not the turn's cost).
 */
export function actualTurnTokens(usageHistory: readonly TokenUsage[] | undefined, turnStartedAt: string): number | undefined {
  const growth = estimateContextGrowth(usageHistory, { turnStartedAt });
  if (growth.tokensThisTurn === undefined) return undefined;
  if (growth.compacted) {
    // A compaction before the turn is harmless; one inside it resets the baseline and hides the cost.
    const start = Date.parse(turnStartedAt);
    const inTurn = (usageHistory ?? []).filter((u) => u.timestamp !== undefined && Date.parse(u.timestamp) >= start);
    for (let i = 1; i < inTurn.length; i += 1) {
      if ((inTurn[i] as TokenUsage).contextTokens < (inTurn[i - 1] as TokenUsage).contextTokens * 0.9) return undefined;
    }
  }
  return Math.round(growth.tokensThisTurn);
}
