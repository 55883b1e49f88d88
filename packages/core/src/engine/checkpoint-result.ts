import type { AgentId } from '../agent-id.ts';
import type { ChangedFile } from '../git/changed-file.ts';

/** Why a changed file was attributed to this turn (see docs/turn-attribution.md). */
export type AttributionReason =
  /** An edit/write/patch call of this turn names it. */
  | 'tool-mutation'
  /** A mutating shell command of this turn names it (`sed -i`, `>`, `mv`, `touch`…). */
  | 'shell-mutation'
  /** Modified on disk after the turn started (e.g. by a formatter, a generator, or an unparsed command). */
  | 'modified-during-turn'
  /** Committed since the turn started. */
  | 'committed-during-turn'
  /** No transcript data: every uncommitted file counts (seed: "bad transcript → file-based instructions only"). */
  | 'fallback-all-uncommitted'
  /**
   * The transcript read was capped before the turn's start (`truncated`, start unknown) and the file
   * was last modified before the part that was read: the unread part of the turn may have changed it,
   * so it counts, as it would without any transcript.
   */
  | 'truncated-unread-part';

/** A changed file with the reason it is on the file axis of this turn. */
export interface AttributedFile {
  readonly file: ChangedFile;
  readonly reason: AttributionReason;
  /** Ids of the tool calls that touched it, when known. */
  readonly callIds: readonly string[];
}

/** One category that matched, with the evidence search result. */
export interface CategoryMatch {
  readonly id: string;
  readonly label: string;
  /** Repo-relative paths that fell in the category. */
  readonly files: readonly string[];
  /** The action text (may be empty: "no action needed"). */
  readonly action: string;
  /** The call whose command satisfied the evidence, when found. */
  readonly evidenceCallId?: string;
  /** The evidence pattern that matched, when found. */
  readonly evidenceMatched?: string;
  /** True when the action is required (has text, and no evidence was found). */
  readonly required: boolean;
}

/**
 * How one follow-up (log check, tests…) was evaluated, for `explain`. Only follow-ups that one of the
 * turn's categories triggered are listed.
 */
export interface FollowUpMatch {
  readonly id: string;
  /** The action text ({window} substituted). */
  readonly action: string;
  /** The matched categories that triggered it. */
  readonly triggeredBy: readonly string[];
  /**
   * - `required`: no evidence: the action is asked for;
   * - `satisfied`: its evidence was found (`evidenceCallId`), so it is suppressed;
   * - `covered`: a required category action already implies it (a tests-only diff gets one test action).
   */
  readonly status: 'required' | 'satisfied' | 'covered';
  readonly evidenceCallId?: string;
  readonly evidenceMatched?: string;
}

/** A required follow-up action, in precedence order. */
export interface RequiredAction {
  /** Category or follow-up id that produced it. */
  readonly source: string;
  readonly text: string;
  readonly precedence: number;
}

/** Stable observation kinds. */
export type ObservationKind =
  | 'verification-gap'
  | 'unresolved-error'
  | 'edit-without-read'
  | 'blast-radius'
  | 'plan-drift';

/**
 * Something that looks wrong: one sentence, with the calls that caused it (for a verification gap,
 * the last call that changed the category's files, when the timeline shows one).
 */
export interface Observation {
  readonly kind: ObservationKind;
  readonly text: string;
  readonly callIds: readonly string[];
  /** For enriched errors: the error pattern id that matched. */
  readonly patternId?: string;
}

/** What the heuristic engine decided. Pure data: rendering is separate. */
export interface CheckpointResult {
  readonly categories: readonly CategoryMatch[];
  readonly requiredActions: readonly RequiredAction[];
  readonly observations: readonly Observation[];
  /** How each triggered follow-up was evaluated (for `explain`; not used by the message). */
  readonly followUps?: readonly FollowUpMatch[];
  /** True when there is nothing to ask for and nothing looks wrong. */
  readonly isAllClear: boolean;
}

/** Context the heuristics need beyond files and timeline. */
export interface CheckpointContext {
  readonly agent: AgentId;
  /** Repository root (or cwd when not a repo): paths in tool calls are normalized against it. */
  readonly projectRoot: string;
  /** The session cwd, for relative paths in tool calls. Defaults to projectRoot. */
  readonly cwd?: string;
  /** Working slug for plan drift (also AGENT_CHECKPOINT_SLUG). */
  readonly workingSlug?: string;
  /** Seconds since the turn started, when known: sizes "{window}" in follow-up actions. */
  readonly elapsedSeconds?: number;
}
