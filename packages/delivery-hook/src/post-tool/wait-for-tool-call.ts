import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core/hot-path';

/**
 * Agents whose post-tool hook can run before the transcript holds the call it reports, so the monitor
 * read the previous call's usage and warned one call late (both seen in e2e runs under load):
 * - Claude Code writes its transcript through a queue flushed every 100 ms (claude-cli.md §2.4);
 * - Copilot CLI 1.0.102 writes its session log behind the session (its `hook.start` of this hook
 *   follows the call's usage record).
 * Listed here, not in the profiles: the monitor's bundle does not load them.
 */
export const TOOL_CALL_WRITE_LAGS: Readonly<Partial<Record<AgentId, true>>> = { claude: true, copilot: true };

/** Bytes of the transcript's end searched for the call's id (the call is the newest entry or close to it). */
const TAIL_BYTES = 256 * 1024;
/** Re-read interval: a fraction of Claude's 100 ms flush. */
const POLL_MS = 20;

/**
 * Wait until the transcript's tail holds `mark` (the payload's write mark for this call), re-reading
 * every {@link POLL_MS} ms until `deadlineAt`. Returns how it ended; never throws. Only a regular file
 * is read (opened non-blocking, so a FIFO in its place cannot hang the hook). A missing file is
 * waited for only while its directory exists: a Copilot subagent's tool hooks name a session log in
 * a directory that never exists.
 */
export async function waitForToolCall(transcriptPath: string, mark: string, deadlineAt: number): Promise<'found' | 'timeout' | 'unreadable'> {
  const needle = mark;
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
  } catch (error) {
    // Not written yet (a new Copilot session's log at its first call) is waited for while the
    // session's directory exists; a subagent's tool hooks name a log, and a directory, that never do.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && isDirectory(dirname(path)) ? false : 'unreadable';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
