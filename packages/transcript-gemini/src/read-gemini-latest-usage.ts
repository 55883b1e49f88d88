import { latestUsageHistoryFloor, latestUsageOf, readJsonlTail, readLatestUsageFile, type LatestUsage, type LatestUsageFile, type ReadLatestUsageRequest } from '@agent-checkpoint/core/transcript-tail';
import { classifyGeminiRecord, toGeminiMessage, type GeminiMessage, type GeminiRecord } from './gemini-record.ts';
import { geminiUsageRecords, hasGeminiUsage } from './gemini-usage-records.ts';
import { readGeminiLegacyJson } from './read-gemini-legacy-json.ts';
import { isResetPoint, reduceGeminiRecords } from './reduce-gemini-records.ts';
import { SNIFF_BYTES, sniffGeminiFile } from './sniff-gemini-file.ts';

/**
 * The newest usage records of a Gemini CLI chat recording, through the reader's own replay
 * ({@link reduceGeminiRecords}) and usage extraction ({@link geminiUsageRecords}), so the numbers are
 * those `readTurn` reports.
 *
 * JSON Lines are read backwards from the end until a message whose final copy (the newest, met first)
 * carries tokens is found, never past the cap; older ones, up to `history`, only from the window that
 * one was found in. A `$set.messages` reset ends the read, unless it lists `gemini` messages without
 * their tokens (0.61's rebuilt history on `--resume`, see `keepUsageAcrossRewrites`): then the read
 * goes on, within the same bounds, only for older copies of those ids that carry tokens. With a
 * `$rewindTo` among the lines read, the records are replayed to count only the messages that survive
 * it. A file no larger than the cap is sniffed first (4 KiB) so that an older single-document `.json`
 * recording is parsed whole, as `readTurn` does; a larger one cannot be. Never throws.
 *
 * Unlike `readTurn`, a file whose head holds NUL bytes is still read as JSON Lines: the monitor wants
 * the last record a damaged recording has (the turn reader refuses such a file as binary).
 */
export function readGeminiLatestUsage(request: ReadLatestUsageRequest): LatestUsage | undefined {
  return readLatestUsageFile(request, (file) => readUsage(request, file));
}

function readUsage(request: ReadLatestUsageRequest, { path, size, limits }: LatestUsageFile): LatestUsage | undefined {
  let sniffLength = 0;
  if (size <= limits.maxBytes) {
    sniffLength = Math.min(size, SNIFF_BYTES);
    const sniffed = sniffGeminiFile(path, sniffLength, size <= SNIFF_BYTES);
    if (sniffed.format === 'legacy-json') {
      const legacy = readGeminiLegacyJson(path);
      if (!legacy.ok) return undefined;
      const records = geminiUsageRecords(reduceGeminiRecords(legacy.records).messages);
      return latestUsageOf(records, limits.history, { bytesRead: size, fileBytes: size });
    }
    // Any other verdict is read as JSON Lines: a binary or foreign file holds no record anyway, and a
    // recording with NUL bytes or garbage at its end (a crash mid-write) still has its records.
  }

  const collected: GeminiRecord[] = []; // newest first
  const counted = new Set<string>();
  const finalSeen = new Set<string>();
  // Past the newest `$set.messages`: the ids it lists as `gemini` messages without tokens (and no
  // newer copy), whose usage an older copy may still hold (see `keepUsageAcrossRewrites`).
  let unresolved: Set<string> | undefined;
  let rewinds = 0;
  let floor: number | undefined;
  const replay = (): readonly GeminiMessage[] => reduceGeminiRecords([...collected].reverse(), { keepUsageAcrossRewrites: true }).messages;
  const enough = (): boolean => {
    if (counted.size < limits.history) return false;
    if (rewinds === 0) return true;
    // A rewind may have removed messages counted above: count the survivors.
    return geminiUsageRecords(replay()).length >= limits.history;
  };
  const found = (offset: number): void => {
    floor ??= latestUsageHistoryFloor(size, offset, limits.chunkBytes);
  };
  /** Older than the newest rewrite: keeps only the copies that give its messages their usage back. */
  const resolveOlderUsage = (record: GeminiRecord, offset: number): 'stop' | 'continue' => {
    const pending = unresolved ?? new Set<string>();
    const candidates = record.kind === 'message' ? [record.message] : isResetPoint(record) ? listedMessages(record) : [];
    const hits = candidates.filter((message) => pending.has(message.id) && hasGeminiUsage(message));
    if (hits.length > 0) {
      collected.push(record);
      for (const message of hits) {
        pending.delete(message.id);
        counted.add(message.id);
      }
      found(offset);
    }
    return pending.size === 0 || enough() ? 'stop' : 'continue';
  };
  const tail = readJsonlTail(path, {
    maxBytes: limits.maxBytes,
    chunkBytes: limits.chunkBytes,
    ...(request.signal ? { signal: request.signal } : {}),
    ...(limits.deadlineAt !== undefined ? { deadlineAt: limits.deadlineAt } : {}),
    visit: (entry, info) => {
      // Older records only from the window the newest was found in: history never lengthens the read.
      if (floor !== undefined && info.offset < floor) return 'stop';
      const record = classifyGeminiRecord(entry);
      if (record.kind === 'unknown') return 'continue';
      if (record.kind === 'set' && record.messages === undefined) return 'continue';
      if (record.kind === 'metadata' && record.messages === undefined) return 'continue';
      if (unresolved !== undefined) return resolveOlderUsage(record, info.offset);
      collected.push(record);
      if (isResetPoint(record)) {
        unresolved = new Set(rewrittenWithoutUsage(record, finalSeen));
        return unresolved.size === 0 || enough() ? 'stop' : 'continue';
      }
      if (record.kind === 'rewind') {
        rewinds += 1;
        return 'continue';
      }
      if (record.kind !== 'message' || finalSeen.has(record.message.id)) return 'continue';
      // Read backwards, the first copy met is the message's final one: it alone decides.
      finalSeen.add(record.message.id);
      if (hasGeminiUsage(record.message)) {
        counted.add(record.message.id);
        found(info.offset);
      }
      return enough() ? 'stop' : 'continue';
    },
  });
  const records = geminiUsageRecords(replay());
  // Distinct bytes read: the tail window plus the part of the sniffed head it did not cover.
  const bytesRead = tail.bytesRead + Math.max(0, Math.min(sniffLength, tail.fileSize - tail.bytesRead));
  return latestUsageOf(records, limits.history, { bytesRead, fileBytes: tail.fileSize });
}

/** The messages a `$set.messages` (or metadata `messages`) record lists. */
function listedMessages(record: GeminiRecord): GeminiMessage[] {
  const list = record.kind === 'set' || record.kind === 'metadata' ? (record.messages ?? []) : [];
  return list.map(toGeminiMessage).filter((message): message is GeminiMessage => message !== undefined);
}

/** Ids of the `gemini` messages a rewrite lists without tokens, unless a newer copy of theirs decides. */
function rewrittenWithoutUsage(record: GeminiRecord, finalSeen: ReadonlySet<string>): string[] {
  return listedMessages(record)
    .filter((message) => message.type === 'gemini' && !hasGeminiUsage(message) && !finalSeen.has(message.id))
    .map((message) => message.id);
}
