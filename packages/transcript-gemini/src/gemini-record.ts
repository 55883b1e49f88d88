import { P, match } from 'ts-pattern';

/**
 * One message of a Gemini CLI chat recording (`MessageRecord` in gemini-cli), kept raw. Fields are
 * read lazily by the timeline builder because every one of them may be missing or of an unexpected
 * type in a file written by another CLI version.
 */
export interface GeminiMessage {
  readonly id: string;
  /** `user`, `gemini`, `info`, `warning`, `error`… (unknown types are kept and ignored later). */
  readonly type: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * One line of a 0.61 `session-*.jsonl` file, classified the way the CLI's own loader does
 * (`loadConversationRecord`: rewind first, then message, then `$set`, then metadata).
 */
export type GeminiRecord =
  /** First line: `{sessionId, projectHash, startTime, lastUpdated, kind, …}`. */
  | {
      readonly kind: 'metadata';
      readonly sessionId: string;
      /** Present in single-line documents written by older versions; replaces the message list. */
      readonly messages?: readonly unknown[];
    }
  /** `{"$set":{…}}`: metadata patch; `$set.messages` replaces the whole message list. */
  | { readonly kind: 'set'; readonly messages?: readonly unknown[]; readonly sessionId?: string }
  /** `{"$rewindTo":"<id>"}`: removes that message and everything after it (all when unknown). */
  | { readonly kind: 'rewind'; readonly targetId: string }
  /** A message record; re-appended whenever it changes (last copy wins, first-seen order). */
  | { readonly kind: 'message'; readonly message: GeminiMessage }
  /** Anything else: a future record kind, or a line of another agent's transcript. */
  | { readonly kind: 'unknown'; readonly foreign?: ForeignAgent };

/**
 * The message types Gemini CLI writes (`MessageRecord.type`). The loader accepts any `{id, type}` line
 * as a message, and so does {@link classifyGeminiRecord}; but only these prove that a file is a
 * Gemini recording: Claude Code's `{"type":"api-request","sessionId":…,"id":…}` bookkeeping lines have
 * the same shape.
 */
export const GEMINI_MESSAGE_TYPES: ReadonlySet<string> = new Set(['user', 'gemini', 'info', 'warning', 'error']);

/** Agents whose transcript lines we recognise well enough to name them in a diagnostic. */
export type ForeignAgent = 'claude' | 'codex';

const objectPattern = P.when((value: unknown): value is Record<string, unknown> => isRecord(value));

/** Classify one parsed JSONL line. Pure; never throws. */
export function classifyGeminiRecord(entry: unknown): GeminiRecord {
  return match<unknown, GeminiRecord>(entry)
    .with({ $rewindTo: P.string }, (r) => ({ kind: 'rewind', targetId: r.$rewindTo }))
    .with({ id: P.string, type: P.string }, (r) => ({
      kind: 'message',
      message: { id: r.id, type: r.type, raw: r as Record<string, unknown> },
    }))
    .with({ $set: objectPattern }, (r) => {
      const patch = r.$set;
      return {
        kind: 'set',
        ...(Array.isArray(patch['messages']) ? { messages: patch['messages'] as unknown[] } : {}),
        ...(typeof patch['sessionId'] === 'string' ? { sessionId: patch['sessionId'] } : {}),
      };
    })
    .with({ sessionId: P.string, projectHash: P.string }, (r) => {
      const messages = (r as Record<string, unknown>)['messages'];
      return {
        kind: 'metadata',
        sessionId: r.sessionId,
        ...(Array.isArray(messages) ? { messages: messages as unknown[] } : {}),
      };
    })
    .otherwise((r) => {
      const foreign = detectForeignAgent(r);
      return foreign ? { kind: 'unknown', foreign } : { kind: 'unknown' };
    });
}

/** Turn an element of a `messages` array (`$set.messages`, legacy document) into a message. */
export function toGeminiMessage(value: unknown): GeminiMessage | undefined {
  const record = classifyGeminiRecord(value);
  return record.kind === 'message' ? record.message : undefined;
}

/**
 * Recognise lines of the other agents' transcripts so a wrong-agent file gets a precise diagnostic.
 * Claude Code lines carry `uuid` plus `message`/`type`; Codex rollout lines carry `payload` and a
 * `session_meta`/`response_item`/`event_msg`/`turn_context` type.
 */
function detectForeignAgent(entry: unknown): ForeignAgent | undefined {
  return match(entry)
    .with({ type: P.union('session_meta', 'response_item', 'event_msg', 'turn_context', 'world_state', 'compacted'), payload: P.nonNullable }, () => 'codex' as const)
    .with({ uuid: P.string, type: P.string }, () => 'claude' as const)
    .with({ type: 'summary', leafUuid: P.string }, () => 'claude' as const)
    .otherwise(() => undefined);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
