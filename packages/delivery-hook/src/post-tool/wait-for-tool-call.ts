import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { AgentId } from '@agent-checkpoint/core/hot-path';

/**
 * Agents whose PostToolUse hook can run before the transcript holds the call it reports: Claude Code
 * writes its transcript through a queue flushed every 100 ms (claude-cli.md §2.4), so after a fast
 * tool the assistant entry with that call — and the usage the monitor reads — may still be queued.
 * The monitor then read the previous call's usage and warned one call late (seen in the acceptance
 * e2e under load). Listed here, not in the profiles: the monitor's bundle does not load them.
 */
export const TOOL_CALL_WRITE_LAGS: Readonly<Partial<Record<AgentId, true>>> = { claude: true };

/** Bytes of the transcript's end searched for the call's id (the call is the newest entry or close to it). */
const TAIL_BYTES = 256 * 1024;
/** Re-read interval: a fraction of Claude's 100 ms flush. */
const POLL_MS = 20;

/**
 * Wait until the transcript's tail names the tool call `callId` (as a JSON string), re-reading every
 * {@link POLL_MS} ms until `deadlineAt`. Returns how it ended; never throws. Only a regular file is
 * read (opened non-blocking, so a FIFO in its place cannot hang the hook).
 */
export async function waitForToolCall(transcriptPath: string, callId: string, deadlineAt: number): Promise<'found' | 'timeout' | 'unreadable'> {
  const needle = JSON.stringify(callId);
  for (;;) {
    const seen = tailIncludes(transcriptPath, needle);
    if (seen !== false) return seen === true ? 'found' : 'unreadable';
    const left = deadlineAt - Date.now();
    if (left <= 0) return 'timeout';
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}

function tailIncludes(path: string, needle: string): boolean | 'unreadable' {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return 'unreadable';
    const length = Math.min(stat.size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, stat.size - length);
    return buffer.toString('utf8', 0, read).includes(needle);
  } catch {
    return 'unreadable';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
