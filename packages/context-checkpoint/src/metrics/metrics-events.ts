import { describeIssues } from '@agent-checkpoint/core';
import { appendJsonlLine, DEFAULT_LOG_MAX_BYTES, readJsonlLog, type AppendJsonlResult, type JsonlLogLocation, type ReadJsonlLogResult } from './jsonl-log.ts';
import type { MetricsEvent } from './metrics-event-schema.ts';
import { projectKey } from './project-key.ts';

// Types only: the schemas (and zod) load lazily, see metrics-event-schema.ts.
export type { AlertKind, MetricsEvent, MetricsEventType } from './metrics-event-schema.ts';

/** Where a project's metrics log lives. */
export interface MetricsLogOptions {
  readonly stateDir: string;
  readonly projectRoot: string;
  /** Cap of the file (default {@link DEFAULT_LOG_MAX_BYTES}). */
  readonly maxBytes?: number;
}

/** `metrics/<project key>.jsonl` inside the state directory. */
export function metricsLogLocation(options: Pick<MetricsLogOptions, 'stateDir' | 'projectRoot'>): JsonlLogLocation {
  return { stateDir: options.stateDir, relPath: `metrics/${projectKey(options.projectRoot)}.jsonl` };
}

/**
 * Append one event to the project's metrics log (validated first: a caller's bug never writes a line
 * the reader would skip). Throws as `appendJsonlLine` does; callers report and go on.
 */
export async function recordMetricsEvent(options: MetricsLogOptions, event: MetricsEvent): Promise<AppendJsonlResult> {
  return (await prepareMetricsEvent(options, event))();
}

/**
 * Validate `event` now and return its append as a synchronous call, for a caller that learns only
 * inside a synchronous callback that the event happened (the turn end's granted-block bookkeeping).
 * Throws now on an invalid event (one line naming the bad fields); the returned call throws as `appendJsonlLine` does.
 */
export async function prepareMetricsEvent(options: MetricsLogOptions, event: MetricsEvent): Promise<() => AppendJsonlResult> {
  const { MetricsEventSchema } = await import('./metrics-event-schema.ts');
  // safeParse: a ZodError's message is its issues as JSON over many lines, not a diagnostic line.
  const checked = MetricsEventSchema.safeParse(event);
  if (!checked.success) throw new Error(`invalid event: ${describeIssues(checked.error)}`);
  const valid = checked.data;
  return () => appendJsonlLine(metricsLogLocation(options), valid, options.maxBytes ?? DEFAULT_LOG_MAX_BYTES);
}

/** The project's metrics events, oldest first; bad lines skipped and counted. Never throws. */
export async function readMetricsEvents(options: MetricsLogOptions): Promise<ReadJsonlLogResult<MetricsEvent>> {
  const { MetricsEventSchema } = await import('./metrics-event-schema.ts');
  return readJsonlLog(metricsLogLocation(options), MetricsEventSchema, options.maxBytes ?? DEFAULT_LOG_MAX_BYTES);
}
