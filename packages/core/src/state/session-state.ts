import { createHash } from 'node:crypto';
// zod/mini: the same validation at a fraction of classic zod's load time (this runs in every hook).
import * as z from 'zod/mini';
import { AGENT_IDS, type AgentId } from '../agent-id.ts';

/** How many turns a session state file remembers (oldest dropped first). */
export const MAX_TURNS_KEPT = 32;

/** Turn ids longer than this are stored as a digest, so a hostile payload cannot bloat the file. */
const MAX_TURN_ID_LENGTH = 200;

/** What the loop guard remembers about one turn of a session. */
export interface TurnRecord {
  /** The turn identity (Claude `prompt_id`, Codex `turn_id`, Gemini prompt digest), see {@link normalizeTurnId}. */
  readonly turnId: string;
  /** Checkpoints delivered (blocks) in this turn. */
  readonly blocks: number;
  /** ISO-8601 time of the first and of the latest block of this turn. */
  readonly firstBlockAt: string;
  readonly lastBlockAt: string;
}

/**
 * The state file of one agent session: `<stateDir>/sessions/<agent>-<safe session id>.json`.
 *
 * Small and bounded by design: only the last {@link MAX_TURNS_KEPT} turns, newest last. It holds no
 * transcript content, only identities, counts and times.
 */
export interface SessionState {
  readonly version: 1;
  readonly agent: AgentId;
  /** The raw session id as the agent gave it (the file name may hold a digest instead). */
  readonly sessionId: string;
  /** ISO-8601 time of the last checkpoint delivered in this session, any turn (shown by `status` and the statusline). */
  readonly lastCheckpointAt?: string;
  readonly turns: readonly TurnRecord[];
  /**
   * ISO-8601 time of the latest checkpoint of any turn dropped from {@link turns} (the bound): the low-water
   * mark of what this file still remembers. Turns are sequential within a session, so a turn that started
   * at or before it ended before that checkpoint: its stop is late, and the loop guard treats it as
   * already checkpointed rather than as a new turn (see `decideLoopGuard`).
   */
  readonly forgottenThrough?: string;
  /** ISO-8601 time of the last write. */
  readonly updatedAt?: string;
  /**
   * Per-extension bookkeeping, by slot name (`context`, `commitGate`: the context checkpoint
   * package's). Core neither types nor validates a slot: the owning package does, reading an invalid
   * slot as absent. Files written before the slot existed had `context` and `commitGate` at the top
   * level; {@link migrateSessionStateJson} moves them in on read, so nothing is lost.
   */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /**
   * Digests of the last {@link MAX_DELIVERED_KEPT} checkpoint messages delivered (`deliveredMessageDigest`),
   * oldest first: readers count a plain user message as our checkpoint only when it is one of them.
   */
  readonly delivered?: readonly string[];
  /**
   * Digests (`noticeDigest`) of the user notices already shown in this session (a broken config, an
   * unreadable transcript…), oldest first and bounded: each distinct notice is shown once.
   */
  readonly noticesShown?: readonly string[];
  /**
   * The newest block still waiting for its outcome, and the settled outcomes (newest last, bounded):
   * read them with `readBlockOutcomes`, which validates them and reads a damaged field as absent.
   */
  readonly pendingBlock?: unknown;
  readonly blockOutcomes?: unknown;
}

/** How many delivered-message digests a session state keeps. */
export const MAX_DELIVERED_KEPT = 16;

/** How many shown-notice digests a session state keeps (a session rarely sees more than two). */
export const MAX_NOTICES_KEPT = 16;

const isoTime = z.string().check(z.refine((s) => !Number.isNaN(Date.parse(s)), 'not a date'));

/** Loose on unknown keys (a newer version may add some), strict on the ones we rely on. */
export const SessionStateSchema = z.looseObject({
  version: z.literal(1),
  agent: z.enum(AGENT_IDS as readonly [AgentId, ...AgentId[]]),
  sessionId: z.string(),
  lastCheckpointAt: z.optional(isoTime),
  turns: z
    .array(
      z.looseObject({
        turnId: z.string().check(z.minLength(1)),
        blocks: z.int().check(z.minimum(0)),
        firstBlockAt: isoTime,
        lastBlockAt: isoTime,
      }),
    )
    .check(z.maxLength(MAX_TURNS_KEPT * 4)),
  updatedAt: z.optional(isoTime),
  forgottenThrough: z.optional(isoTime),
  delivered: z.optional(z.array(z.string().check(z.maxLength(80))).check(z.maxLength(MAX_DELIVERED_KEPT * 4))),
  noticesShown: z.optional(z.array(z.string().check(z.maxLength(80))).check(z.maxLength(MAX_NOTICES_KEPT * 4))),
  extensions: z.optional(z.record(z.string(), z.unknown())),
});

/** Top-level fields of older state files that now live in {@link SessionState.extensions}, by slot. */
const LEGACY_SLOTS = ['context', 'commitGate'] as const;

/**
 * A parsed state file with the legacy top-level `context` and `commitGate` moved into `extensions`
 * (a slot already there wins). Anything that is not a plain object is returned as is (the schema
 * then rejects it). The input is left alone.
 */
export function migrateSessionStateJson(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const record = json as Record<string, unknown>;
  if (!LEGACY_SLOTS.some((key) => Object.hasOwn(record, key))) return json;
  const { context, commitGate, ...rest } = record;
  const extensions = rest['extensions'];
  const slots: Record<string, unknown> = typeof extensions === 'object' && extensions !== null && !Array.isArray(extensions) ? { ...extensions } : {};
  if (context !== undefined && !Object.hasOwn(slots, 'context')) slots['context'] = context;
  if (commitGate !== undefined && !Object.hasOwn(slots, 'commitGate')) slots['commitGate'] = commitGate;
  return { ...rest, extensions: slots };
}

/** A state with no history, for a session seen for the first time (or whose file was unreadable). */
export function emptySessionState(agent: AgentId, sessionId: string): SessionState {
  return { version: 1, agent, sessionId, turns: [] };
}

/**
 * Bound a turn id: ids over 200 characters become `sha256:<hex>`. Agents use UUIDs, but the Gemini
 * fallback identity is derived from prompt text.
 */
export function normalizeTurnId(turnId: string): string {
  if (turnId.length <= MAX_TURN_ID_LENGTH) return turnId;
  return `sha256:${createHash('sha256').update(turnId, 'utf8').digest('hex')}`;
}

/** The record of a turn, if this session has one. */
export function findTurn(state: SessionState, turnId: string): TurnRecord | undefined {
  const id = normalizeTurnId(turnId);
  return state.turns.find((t) => t.turnId === id);
}

/**
 * The state after one more checkpoint was delivered in `turnId` at `now`: the turn's count goes up,
 * it moves to the end (most recent), `lastCheckpointAt` is set and old turns are pruned, the latest
 * checkpoint among the pruned ones kept as {@link SessionState.forgottenThrough}.
 */
export function recordBlock(state: SessionState, turnId: string, now: Date): SessionState {
  const id = normalizeTurnId(turnId);
  const at = now.toISOString();
  const previous = state.turns.find((t) => t.turnId === id);
  const updated: TurnRecord = previous
    ? { ...previous, blocks: previous.blocks + 1, lastBlockAt: at }
    : { turnId: id, blocks: 1, firstBlockAt: at, lastBlockAt: at };
  const all = [...state.turns.filter((t) => t.turnId !== id), updated];
  const turns = all.slice(-MAX_TURNS_KEPT);
  const forgottenThrough = latestTime([state.forgottenThrough, ...all.slice(0, all.length - turns.length).map((t) => t.lastBlockAt)]);
  return { ...state, lastCheckpointAt: at, turns, updatedAt: at, ...(forgottenThrough !== undefined ? { forgottenThrough } : {}) };
}

/** The latest of these ISO times (unparseable ones ignored), as given; undefined when none. */
function latestTime(times: readonly (string | undefined)[]): string | undefined {
  let best: string | undefined;
  for (const iso of times) {
    if (iso === undefined || Number.isNaN(Date.parse(iso))) continue;
    if (best === undefined || Date.parse(iso) > Date.parse(best)) best = iso;
  }
  return best;
}

/** The state after a checkpoint with this message digest was delivered: kept newest last, bounded. */
export function recordDelivered(state: SessionState, digest: string): SessionState {
  const delivered = [...(state.delivered ?? []).filter((d) => d !== digest), digest].slice(-MAX_DELIVERED_KEPT);
  return { ...state, delivered };
}

/** The state after these notice digests were shown: kept newest last, bounded. */
export function recordNoticesShown(state: SessionState, digests: readonly string[]): SessionState {
  const kept = (state.noticesShown ?? []).filter((d) => !digests.includes(d));
  return { ...state, noticesShown: [...kept, ...digests].slice(-MAX_NOTICES_KEPT) };
}
