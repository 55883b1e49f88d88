import { assertNever } from '@agent-checkpoint/core/hot-path';
import type { GeminiMessage, GeminiRecord } from './gemini-record.ts';
import { toGeminiMessage } from './gemini-record.ts';

/** The message list a sequence of records leaves behind, as the CLI held it in memory. */
export interface ReducedGemini {
  readonly messages: readonly GeminiMessage[];
  /** Session id from the metadata line or a `$set.sessionId` patch, when seen. */
  readonly sessionId?: string;
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
export function reduceGeminiRecords(records: Iterable<GeminiRecord>): ReducedGemini {
  // A Map keeps insertion order and `set` on an existing key keeps its position: exactly
  // "last copy wins, in first-seen order".
  const messages = new Map<string, GeminiMessage>();
  let sessionId: string | undefined;

  const replaceAll = (list: readonly unknown[]): void => {
    messages.clear();
    for (const item of list) {
      const message = toGeminiMessage(item);
      if (message) messages.set(message.id, message);
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
        break;
      case 'unknown':
        break;
      default:
        assertNever(record);
    }
  }
  return { messages: [...messages.values()], ...(sessionId !== undefined ? { sessionId } : {}) };
}

/** True when a record replaces the whole message list, so nothing older can matter. */
export function isResetPoint(record: GeminiRecord): boolean {
  return (record.kind === 'set' || record.kind === 'metadata') && record.messages !== undefined;
}
