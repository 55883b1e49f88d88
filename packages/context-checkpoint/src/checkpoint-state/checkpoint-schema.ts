// zod/mini: the same validation at a fraction of classic zod's load time.
import * as z from 'zod/mini';

/** Status of one phase of a command. */
export type PhaseStatus = 'pending' | 'in_progress' | 'complete' | 'failed' | 'skipped';

/** One phase of a command's checkpoint. Unknown extra fields are kept. */
export interface CheckpointPhase {
  readonly status: PhaseStatus;
  /** ISO-8601 */
  readonly started_at?: string;
  readonly updated_at?: string;
  /** At most the summary token limit (500 words by default), validated on save. */
  readonly context_summary?: string;
  readonly files_created?: readonly string[];
  readonly files_modified?: readonly string[];
  readonly error?: string;
  readonly [extra: string]: unknown;
}

/** Ship gate (used by `/ship`-like commands). */
export interface CheckpointGate {
  readonly ship_allowed: boolean;
  readonly blockers: readonly string[];
  readonly head_commit?: string;
  readonly [extra: string]: unknown;
}

/** The `state` block: where the command is. */
export interface CheckpointStateBlock {
  readonly current_phase: string | null;
  readonly completed_phases: readonly string[];
  readonly pending_phases: readonly string[];
  /** Task id like `T002`. */
  readonly current_task?: string;
  /** Validated like phase summaries when present. */
  readonly context_summary?: string;
  readonly [extra: string]: unknown;
}

/** Fields a caller provides; unknown extra fields are kept. */
export interface CheckpointBody {
  readonly command: string;
  readonly feature?: string | null;
  /** ISO-8601, set by `complete`. */
  readonly completed_at?: string;
  readonly state: CheckpointStateBlock;
  readonly phases: { readonly [phase: string]: CheckpointPhase };
  readonly gate?: CheckpointGate;
  readonly [extra: string]: unknown;
}

/**
 * The unified checkpoint of one command (seed 002, schema version 1), stored as
 * `<stateDir>/<command>-checkpoint.json` or `<stateDir>/<command>-<feature>.json`.
 */
export interface UnifiedCheckpoint extends CheckpointBody {
  readonly version: 1;
  /** `git rev-parse HEAD` at the last save (null without commits or outside git). */
  readonly head_commit?: string | null;
  /** ISO-8601 */
  readonly started_at: string;
  readonly updated_at: string;
}

/** What a caller passes to `save`: version, HEAD and timestamps are filled in. */
export interface CheckpointInput extends CheckpointBody {
  readonly version?: 1;
  readonly head_commit?: string | null;
  readonly started_at?: string;
  readonly updated_at?: string;
}

const strings = z.array(z.string());
/**
 * Seed 002's timestamps are ISO 8601 date-times (`2026-01-29T10:30:00.000Z`, an offset allowed):
 * enforced on read and on save, so "yesterday" or a bare date never becomes a checkpoint's time.
 */
const isoTime = z.iso.datetime({ offset: true });

const PhaseSchema = z.looseObject({
  status: z.enum(['pending', 'in_progress', 'complete', 'failed', 'skipped']),
  started_at: z.optional(isoTime),
  updated_at: z.optional(isoTime),
  context_summary: z.optional(z.string()),
  files_created: z.optional(strings),
  files_modified: z.optional(strings),
  error: z.optional(z.string()),
});

/** Validates a checkpoint read from disk. Loose: unknown fields survive a load-save cycle. */
export const UnifiedCheckpointSchema = z.looseObject({
  command: z.string(),
  feature: z.optional(z.nullable(z.string())),
  version: z.literal(1),
  head_commit: z.optional(z.nullable(z.string())),
  started_at: isoTime,
  updated_at: isoTime,
  completed_at: z.optional(isoTime),
  state: z.looseObject({
    current_phase: z.nullable(z.string()),
    completed_phases: strings,
    pending_phases: strings,
    current_task: z.optional(z.string()),
    context_summary: z.optional(z.string()),
  }),
  phases: z.record(z.string(), PhaseSchema),
  gate: z.optional(
    z.looseObject({
      ship_allowed: z.boolean(),
      blockers: strings,
      head_commit: z.optional(z.string()),
    }),
  ),
});
