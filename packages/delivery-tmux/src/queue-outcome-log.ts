import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { appendSafelySync, jsonForTerminal } from '@agent-checkpoint/core';
import * as z from 'zod/mini';

/** The queue confirmer's outcome log in the state directory (`doctor` reads it). */
export const NOTIFY_LOG = 'notify.log';
/** Past this size the log is rotated to `notify.log.1` (one generation kept), like `debug.log`. */
export const MAX_NOTIFY_LOG_BYTES = 64 * 1024;

/**
 * One queued item's outcome as logged: `delivered` (confirmed in the rollout), `withdrawn` (not
 * delivered in time, removed from the queue), `stale` (not delivered, and removing it failed: it may
 * still run later). Ids and the reason only: never the message text.
 */
const QueueOutcomeEntrySchema = z.object({
  at: z.string(),
  status: z.enum(['delivered', 'withdrawn', 'stale']),
  threadId: z.string(),
  turnId: z.string(),
  queuedSubmissionId: z.string(),
  reason: z.optional(z.string()),
  latencyMs: z.optional(z.number()),
});
export type QueueOutcomeEntry = z.infer<typeof QueueOutcomeEntrySchema>;

/**
 * Append one outcome as a JSON line to `<stateDir>/notify.log` (0600) through core's
 * `appendSafelySync` (a planted link, FIFO or device is refused), rotating first when the log is past
 * {@link MAX_NOTIFY_LOG_BYTES}. Never throws: returns a diagnostic when the line could not be written.
 */
export function appendQueueOutcome(stateDir: string, entry: QueueOutcomeEntry): string | undefined {
  try {
    const path = join(stateDir, NOTIFY_LOG);
    try {
      // lstat: a link planted as the log is never followed (the append below refuses it).
      const info = lstatSync(path);
      if (info.isFile() && info.size > MAX_NOTIFY_LOG_BYTES) renameSync(path, `${path}.1`);
    } catch {
      // No log yet.
    }
    appendSafelySync(stateDir, NOTIFY_LOG, `${jsonForTerminal(JSON.stringify(entry))}\n`, { rootKind: 'private', mode: 0o600 });
    return undefined;
  } catch (error) {
    return `${NOTIFY_LOG}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * The last outcome in `<stateDir>/notify.log` that was not a confirmed delivery, or undefined (no
 * log, none, or the log is not a regular file). Reads only the current file, at most its last
 * 2 × {@link MAX_NOTIFY_LOG_BYTES} (it is rotated past the cap); malformed lines are skipped.
 */
export function lastQueueProblem(stateDir: string): QueueOutcomeEntry | undefined {
  let fd: number | undefined;
  try {
    // O_NOFOLLOW and O_NONBLOCK: never through a link, never blocked on a FIFO.
    fd = openSync(join(stateDir, NOTIFY_LOG), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (!info.isFile()) return undefined;
    const length = Math.min(info.size, MAX_NOTIFY_LOG_BYTES * 2);
    const buffer = Buffer.alloc(length);
    const got = readSync(fd, buffer, 0, length, info.size - length);
    const lines = buffer.subarray(0, got).toString('utf8').split('\n');
    for (let index = lines.length - 1; index >= 0; index -= 1) {
      const entry = parseEntry(lines[index] ?? '');
      if (entry !== undefined && entry.status !== 'delivered') return entry;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function parseEntry(line: string): QueueOutcomeEntry | undefined {
  if (line.trim() === '') return undefined;
  try {
    const parsed = QueueOutcomeEntrySchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
