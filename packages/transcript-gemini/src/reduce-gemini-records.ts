import { assertNever } from '@agent-checkpoint/core/hot-path';
import type { GeminiMessage, GeminiRecord } from './gemini-record.ts';
import { toGeminiMessage } from './gemini-record.ts';
import { hasGeminiUsage } from './gemini-usage-records.ts';

/** The message list a sequence of records leaves behind, as the CLI held it in memory. */
export interface ReducedGemini {
  readonly messages: readonly GeminiMessage[];
  /** Session id from the metadata line or a `$set.sessionId` patch, when seen. */
  readonly sessionId?: string;
}

/** Options of {@link reduceGeminiRecords}. */
export interface ReduceGeminiOptions {
  /**
   * A `gemini` message that a `$set.messages` rewrite lists without `tokens` keeps the usage (and
   * model and timestamp) of an earlier copy with the same id. 0.61 rebuilds the list from its model
   * history on `--resume`, and a resumed run started in the minute the session started writes its
   * fresh file header into the conversation's own file (same name), so the reloaded list is empty
   * and every rebuilt message loses its `tokens`: the context is unchanged, its usage record is not
   * gone. For the latest-usage read; the turn reader replays from the rewrite on and never sees the
   * copies before it.
   */
  readonly keepUsageAcrossRewrites?: boolean;
}

/**
 * Replay records forward, following the writer's semantics (gemini-cli `ChatRecordingService`):
 * - a message record replaces the earlier copy with the same id **in place** (last copy wins,
 *   first-seen order) or is appended;
 * - `$set.messages` (and `messages` on a metadata line) replaces the whole list;
 * - `$rewindTo` removes the target and everything after it, or everything when the target is unknown.
 *
 * The CLI's own loader in some versions prefers the last `$set.messages` over every later message
 * record; that contradicts what the writer holds in memory (it keeps appending after the rewrite), so
 * the writer's semantics are the ones followed here.
 */
export function reduceGeminiRecords(records: Iterable<GeminiRecord>, options: ReduceGeminiOptions = {}): ReducedGemini {
  // A Map keeps insertion order and `set` on an existing key keeps its position: exactly
  // "last copy wins, in first-seen order".
  const messages = new Map<string, GeminiMessage>();
  let sessionId: string | undefined;
  // The newest copy with usage of every message seen, even one a rewrite has since dropped.
  const usageCopies = options.keepUsageAcrossRewrites === true ? new Map<string, GeminiMessage>() : undefined;
  const noteUsage = (message: GeminiMessage): void => {
    if (usageCopies && hasGeminiUsage(message)) usageCopies.set(message.id, message);
  };

  const replaceAll = (list: readonly unknown[]): void => {
    messages.clear();
    for (const item of list) {
      const message = toGeminiMessage(item);
      if (!message) continue;
      const earlier = usageCopies?.get(message.id);
      messages.set(message.id, earlier && message.type === 'gemini' && !hasGeminiUsage(message) ? withUsageOf(message, earlier) : message);
      noteUsage(message);
    }
  };

  for (const record of records) {
    switch (record.kind) {
      case 'metadata':
        sessionId = record.sessionId;
        if (record.messages) replaceAll(record.messages);
        break;
      case 'set':
        if (record.sessionId !== undefined) sessionId = record.sessionId;
        if (record.messages) replaceAll(record.messages);
        break;
      case 'rewind': {
        let found = false;
        // Deleting the entry being visited (or one already visited) does not disturb a Map's iteration.
        for (const id of messages.keys()) {
          if (id === record.targetId) found = true;
          if (found) messages.delete(id);
        }
        if (!found) messages.clear();
        break;
      }
      case 'message':
        messages.set(record.message.id, record.message);
        noteUsage(record.message);
        break;
      case 'unknown':
        break;
      default:
        assertNever(record);
    }
  }
  return { messages: [...messages.values()], ...(sessionId !== undefined ? { sessionId } : {}) };
}

/** `message` (a rewrite's copy) with the usage of `earlier`, the last copy that had one. */
function withUsageOf(message: GeminiMessage, earlier: GeminiMessage): GeminiMessage {
  const { tokens, model, timestamp } = earlier.raw;
  return { ...message, raw: { ...message.raw, tokens, ...(model !== undefined ? { model } : {}), ...(timestamp !== undefined ? { timestamp } : {}) } };
}

/** True when a record replaces the whole message list, so nothing older can matter. */
export function isResetPoint(record: GeminiRecord): boolean {
  return (record.kind === 'set' || record.kind === 'metadata') && record.messages !== undefined;
}
