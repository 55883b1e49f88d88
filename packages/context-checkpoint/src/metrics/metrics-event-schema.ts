import { z } from 'zod';
import { ALERT_BOUNDS } from './alert-bounds.ts';

/*
 * Schemas of the success-metrics log, loaded with `import()` only when the log is read or written:
 * zod stays off the package's static import path (the hook loads the package on every turn end).
 *
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

/**
 * The alerts the seed's acceptance scenarios name, counted where they reach the agent:
 * - `l1-warning`: the monitor's L1 warning after a tool call (once per level per session: recorded
 *   where the monitor's level mark let it speak);
 * - `estimate-warning`: the prompt hook's "this task may not fit" warning;
 * - `shard-suggestion`: that warning carrying a plan's shard breakdown (counted as this, not as both).
 */
export const AlertKindSchema = z.enum(['l1-warning', 'estimate-warning', 'shard-suggestion']);

/** An alert was added to the agent's context (see {@link AlertKindSchema}). */
export const AlertEventSchema = z.object({
  type: z.literal('alert'),
  at: isoTime,
  kind: AlertKindSchema,
  /** `l1-warning`: the context's displayed percentage when the warning was given. */
  percent: z.number().nonnegative().max(ALERT_BOUNDS.maxPercent).optional(),
  /** `estimate-warning` / `shard-suggestion`: the task's estimated share of the window, in %. */
  estimatedPercent: z.number().nonnegative().max(ALERT_BOUNDS.maxEstimatedPercent).optional(),
  /** `shard-suggestion`: how many shards the breakdown suggested. */
  shards: z.number().int().min(1).max(ALERT_BOUNDS.maxShards).optional(),
});

/** One line of the metrics log. */
export const MetricsEventSchema = z.discriminatedUnion('type', [
  HandoffEventSchema,
  ResumeEventSchema,
  ResumeOutcomeEventSchema,
  CompactionEventSchema,
  EstimateEventSchema,
  AlertEventSchema,
]);

export type MetricsEvent = z.infer<typeof MetricsEventSchema>;
export type MetricsEventType = MetricsEvent['type'];
export type AlertKind = z.infer<typeof AlertKindSchema>;
