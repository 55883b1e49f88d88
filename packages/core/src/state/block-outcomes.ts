import { createHash } from 'node:crypto';
// zod/mini, as the rest of the session state (this runs in hooks).
import * as z from 'zod/mini';
import type { SessionState } from './session-state.ts';

/**
 * What became of a block (see docs/loop-guard-and-switches.md, "Block outcomes"):
 * - `acted-on`: the response to the block did at least one of the actions it required;
 * - `disputed`: it did none, and the agent answered the block itself: it ran the message's escape
 *   hatch, or it ended its own continuation of the blocked turn (the next stop is of the same turn)
 *   without doing them;
 * - `ignored`: it did none and did not dispute: the next stop the session saw was of a later turn (the
 *   user moved on before the agent answered);
 * - `switched-off`: the user turned checkpoints off (session, project, all, environment) after the
 *   block and before the next stop, and the response had not acted on it;
 * - `unknown`: nothing could tell: the response could not be read (no transcript data, the block's
 *   place in it lost), or a newer block replaced it before any stop was seen.
 */
export type BlockOutcomeKind = 'acted-on' | 'disputed' | 'ignored' | 'switched-off' | 'unknown';

/** Every outcome, in report order. */
export const BLOCK_OUTCOME_KINDS: readonly BlockOutcomeKind[] = ['acted-on', 'disputed', 'ignored', 'switched-off', 'unknown'];

/**
 * How a finding of a pending block is checked against the response:
 * - `evidence`: a required action; done when a successful command of the response matches one of
 *   these evidence strings (the engine's own matching, `findLastEvidence`);
 * - `error-resolved`: an unresolved-error observation; done when the engine, run again on the whole
 *   turn, no longer reports the failed calls (`checkErrors`);
 * - `advisory`: nothing to check it against (edit without read, blast radius, plan drift, a context
 *   checkpoint): it takes the block's outcome.
 */
export type FindingCheck =
  | { readonly kind: 'evidence'; readonly evidence: readonly string[] }
  | { readonly kind: 'error-resolved'; readonly callIds: readonly string[] }
  | { readonly kind: 'advisory' };

/** One finding of a block, as the engine reported it. */
export interface BlockFinding {
  /**
   * The rule that produced it: a required action's source (a category id, `<category>:verify`, a
   * follow-up id) or an observation kind (`unresolved-error`, `edit-without-read`…); `mode:<mode>` for
   * a block with no finding of the engine (a context checkpoint).
   */
  readonly rule: string;
  /** The category it belongs to, when it has one (a category action or its verify step). */
  readonly category?: string;
  readonly check: FindingCheck;
}

/** The block of a session still waiting for its outcome (at most one: the newest). */
export interface PendingBlock {
  /** ISO-8601 time the block was granted. */
  readonly at: string;
  /** The loop guard's turn key of the blocked turn (normalised like `TurnRecord.turnId`). */
  readonly turnId: string;
  /** {@link projectKey} of the session's repository root, for `report` and `off --project`. */
  readonly project?: string;
  /** The id of the last tool call the block's timeline held: the response is what comes after it. */
  readonly anchorCallId?: string;
  /** The categories the blocked turn changed (`CheckpointResult.categories`), for `report`. */
  readonly categories: readonly string[];
  readonly findings: readonly BlockFinding[];
}

/** A settled block: what the response did with it. No evidence, no call ids: counts and times only. */
export interface BlockOutcomeRecord {
  readonly at: string;
  /** ISO-8601 time the outcome was decided. */
  readonly settledAt: string;
  readonly turnId: string;
  readonly project?: string;
  readonly categories: readonly string[];
  readonly outcome: BlockOutcomeKind;
  /** Each finding's own outcome: `acted-on` only for the findings the response did. */
  readonly findings: readonly { readonly rule: string; readonly category?: string; readonly outcome: BlockOutcomeKind }[];
}

/** Settled outcomes a session state keeps (oldest dropped first). */
export const MAX_OUTCOMES_KEPT = 32;
/** Findings kept per block, and evidence strings per finding: a hostile config cannot bloat the state. */
export const MAX_FINDINGS_PER_BLOCK = 16;
export const MAX_EVIDENCE_PER_FINDING = 16;
const MAX_ID_LENGTH = 200;
const MAX_EVIDENCE_LENGTH = 500;

const id = z.string().check(z.minLength(1), z.maxLength(MAX_ID_LENGTH));
const isoTime = z.string().check(z.refine((s) => !Number.isNaN(Date.parse(s)), 'not a date'));
const outcomeKind = z.enum(['acted-on', 'disputed', 'ignored', 'switched-off', 'unknown']);

const FindingCheckSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('evidence'), evidence: z.array(z.string().check(z.maxLength(MAX_EVIDENCE_LENGTH))).check(z.maxLength(MAX_EVIDENCE_PER_FINDING)) }),
  z.object({ kind: z.literal('error-resolved'), callIds: z.array(id).check(z.maxLength(MAX_EVIDENCE_PER_FINDING)) }),
  z.object({ kind: z.literal('advisory') }),
]);

const PendingBlockSchema = z.object({
  at: isoTime,
  turnId: id,
  project: z.optional(id),
  anchorCallId: z.optional(id),
  categories: z.array(id).check(z.maxLength(MAX_FINDINGS_PER_BLOCK)),
  findings: z.array(z.object({ rule: id, category: z.optional(id), check: FindingCheckSchema })).check(z.maxLength(MAX_FINDINGS_PER_BLOCK)),
});

const OutcomeRecordSchema = z.object({
  at: isoTime,
  settledAt: isoTime,
  turnId: id,
  project: z.optional(id),
  categories: z.array(id).check(z.maxLength(MAX_FINDINGS_PER_BLOCK)),
  outcome: outcomeKind,
  findings: z.array(z.object({ rule: id, category: z.optional(id), outcome: outcomeKind })).check(z.maxLength(MAX_FINDINGS_PER_BLOCK)),
});

/**
 * The session state's block outcome bookkeeping, validated. A field that is missing or does not
 * validate (a newer or damaged file) reads as absent: outcomes are statistics, never a reason to
 * reset the loop guard's state (the state schema keeps them as unknown keys).
 */
export function readBlockOutcomes(state: SessionState): { readonly pending?: PendingBlock; readonly outcomes: readonly BlockOutcomeRecord[] } {
  const record = state as unknown as Record<string, unknown>;
  const pending = PendingBlockSchema.safeParse(record['pendingBlock']);
  const outcomes = z.array(OutcomeRecordSchema).check(z.maxLength(MAX_OUTCOMES_KEPT * 4)).safeParse(record['blockOutcomes']);
  return {
    ...(pending.success ? { pending: pending.data as PendingBlock } : {}),
    outcomes: outcomes.success ? (outcomes.data as BlockOutcomeRecord[]).slice(-MAX_OUTCOMES_KEPT) : [],
  };
}

/**
 * The state with `block` pending. A block still pending is settled `unknown` first: a newer block
 * replaced it before any stop showed what became of it.
 */
export function withPendingBlock(state: SessionState, block: PendingBlock, now: Date): SessionState {
  const { pending } = readBlockOutcomes(state);
  const base = pending === undefined ? state : withSettledBlock(state, settleAll(pending, 'unknown', now));
  return { ...base, pendingBlock: boundPending(block) } as SessionState;
}

/** The state with its pending block replaced by `record` (kept newest last, bounded). */
export function withSettledBlock(state: SessionState, record: BlockOutcomeRecord): SessionState {
  const { outcomes } = readBlockOutcomes(state);
  const { pendingBlock: _settled, ...rest } = state as SessionState & { pendingBlock?: unknown };
  return { ...rest, blockOutcomes: [...outcomes, record].slice(-MAX_OUTCOMES_KEPT) } as SessionState;
}

/** A record where the block and every finding have the same outcome. */
export function settleAll(pending: PendingBlock, outcome: BlockOutcomeKind, now: Date): BlockOutcomeRecord {
  return outcomeRecord(pending, outcome, pending.findings.map(() => outcome), now);
}

/** The record of `pending` with its block outcome and each finding's, in `pending.findings` order. */
export function outcomeRecord(pending: PendingBlock, outcome: BlockOutcomeKind, findingOutcomes: readonly BlockOutcomeKind[], now: Date): BlockOutcomeRecord {
  return {
    at: pending.at,
    settledAt: now.toISOString(),
    turnId: pending.turnId,
    ...(pending.project === undefined ? {} : { project: pending.project }),
    categories: pending.categories,
    outcome,
    findings: pending.findings.map((f, i) => ({ rule: f.rule, ...(f.category === undefined ? {} : { category: f.category }), outcome: findingOutcomes[i] ?? outcome })),
  };
}

/** A digest of a repository root's absolute path: which project a block was in, without the path. */
export function projectKey(projectRoot: string): string {
  return createHash('sha256').update(projectRoot, 'utf8').digest('hex').slice(0, 32);
}

function boundPending(block: PendingBlock): PendingBlock {
  const cut = (s: string): string => s.slice(0, MAX_ID_LENGTH);
  return {
    ...block,
    turnId: cut(block.turnId),
    ...(block.anchorCallId === undefined ? {} : { anchorCallId: cut(block.anchorCallId) }),
    categories: block.categories.slice(0, MAX_FINDINGS_PER_BLOCK).map(cut),
    findings: block.findings.slice(0, MAX_FINDINGS_PER_BLOCK).map((f) => ({
      rule: cut(f.rule),
      ...(f.category === undefined ? {} : { category: cut(f.category) }),
      check: boundCheck(f.check),
    })),
  };
}

function boundCheck(check: FindingCheck): FindingCheck {
  switch (check.kind) {
    case 'evidence':
      return { kind: 'evidence', evidence: check.evidence.slice(0, MAX_EVIDENCE_PER_FINDING).filter((e) => e.length <= MAX_EVIDENCE_LENGTH) };
    case 'error-resolved':
      return { kind: 'error-resolved', callIds: check.callIds.slice(0, MAX_EVIDENCE_PER_FINDING).filter((c) => c.length > 0 && c.length <= MAX_ID_LENGTH) };
    case 'advisory':
      return check;
  }
}
