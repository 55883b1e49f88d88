import { closeSync, readFileSync } from 'node:fs';
import { P, isMatching } from 'ts-pattern';
import type { GeminiRecord } from './gemini-record.ts';
import { classifyGeminiRecord } from './gemini-record.ts';
import { openRegularFile } from './sniff-gemini-file.ts';

/** Result of reading an older single-document recording. */
export type LegacyReadResult =
  | { readonly ok: true; readonly records: readonly GeminiRecord[]; readonly sessionId?: string }
  | { readonly ok: false; readonly reason: string };

const legacyDocument = P.shape({ messages: P.array(P.any) });

/**
 * Read an older `session-*.json` recording: one JSON document `{sessionId, projectHash, startTime,
 * lastUpdated, messages:[…]}` rewritten whole on every change. The caller checks the size against
 * the byte cap first: a document can only be parsed whole.
 *
 * The messages are returned as message records so the same reducer and timeline builder apply
 * (duplicate ids, which a well-formed document does not have, then keep the last copy).
 */
export function readGeminiLegacyJson(path: string): LegacyReadResult {
  let document: unknown;
  try {
    const fd = openRegularFile(path);
    try {
      document = JSON.parse(readFileSync(fd, 'utf8'));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { ok: false, reason: `not a valid JSON document (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!isMatching(legacyDocument, document)) {
    return { ok: false, reason: 'a JSON document without a "messages" array' };
  }
  const records: GeminiRecord[] = document.messages.map((message: unknown) => classifyGeminiRecord(message));
  const sessionId = (document as Record<string, unknown>)['sessionId'];
  return { ok: true, records, ...(typeof sessionId === 'string' ? { sessionId } : {}) };
}
