import { z } from 'zod';
import { appendJsonlLine, DEFAULT_LOG_MAX_BYTES, readJsonlLog, type AppendJsonlResult, type JsonlLogLocation, type ReadJsonlLogResult } from './jsonl-log.ts';
import { projectKey } from './project-key.ts';

/*
 * The success-metrics log (seed 004 "Success Metrics"): one JSON line per event, per project, in the
 * state directory. The file is untrusted on read (the state directory's path is handed to the agent):
 * every line is validated with these schemas and bad lines are skipped.
 */

const isoTime = z.string().max(40).refine((s) => Number.isFinite(Date.parse(s)), 'not an ISO-8601 time');
const shortId = z.string().min(1).max(200);
const tokens = z.number().int().nonnegative().max(1e9);

/** A handoff document was written, at `level`, automatically (level reached, compaction) or on the user's request. */
export const HandoffEventSchema = z.object({
  type: z.literal('handoff'),
  at: isoTime,
  level: z.enum(['L1', 'L2', 'L3']),
  trigger: z.enum(['auto', 'user']),
  /** The handoff's file name or id, to join with resume events. */
  handoff: shortId.optional(),
});

/** A session (or loop iteration) resumed a handoff: `consumed` once it was shown to the agent. */
export const ResumeEventSchema = z.object({
  type: z.literal('resume'),
  at: isoTime,
  handoff: shortId,
  consumed: z.boolean(),
});

/** What became of a resumed handoff: the resumed work was completed (or not). Known later than the resume. */
export const ResumeOutcomeEventSchema = z.object({
  type: z.literal('resume-outcome'),
  at: isoTime,
  handoff: shortId,
  completed: z.boolean(),
});

/** The agent compacted its context; `handoffBefore` is false when no handoff preceded it (context lost). */
export const CompactionEventSchema = z.object({
  type: z.literal('compaction'),
  at: isoTime,
  handoffBefore: z.boolean(),
});

/** A task estimate and, at the turn's end, the tokens the turn actually used (EST-004). */
export const EstimateEventSchema = z.object({
  type: z.literal('estimate'),
  at: isoTime,
  estimatedTokens: tokens,
  actualTokens: tokens,
});

/** One line of the metrics log. */
export const MetricsEventSchema = z.discriminatedUnion('type', [
  HandoffEventSchema,
  ResumeEventSchema,
  ResumeOutcomeEventSchema,
  CompactionEventSchema,
  EstimateEventSchema,
]);

export type MetricsEvent = z.infer<typeof MetricsEventSchema>;
export type MetricsEventType = MetricsEvent['type'];

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
export function recordMetricsEvent(options: MetricsLogOptions, event: MetricsEvent): AppendJsonlResult {
  const valid = MetricsEventSchema.parse(event);
  return appendJsonlLine(metricsLogLocation(options), valid, options.maxBytes ?? DEFAULT_LOG_MAX_BYTES);
}

/** The project's metrics events, oldest first; bad lines skipped and counted. Never throws. */
export function readMetricsEvents(options: MetricsLogOptions): ReadJsonlLogResult<MetricsEvent> {
  return readJsonlLog(metricsLogLocation(options), MetricsEventSchema, options.maxBytes ?? DEFAULT_LOG_MAX_BYTES);
}
