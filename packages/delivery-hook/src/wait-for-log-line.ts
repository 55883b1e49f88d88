import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { readJsonlTail } from '@agent-checkpoint/core/transcript-tail';

/** What one line of the log's tail says about the wait: the line waited for, a line older than it (stop reading), or neither. */
export type LogLineMatch = 'found' | 'older' | 'continue';

/** How {@link waitForLogLine} ended. */
export type LogLineWaitResult = 'found' | 'timeout' | 'unreadable';

/** One bounded wait for an agent's log to catch up with the hook that is running. */
export interface LogLineWait {
  readonly path: string;
  /**
   * A line whose bytes hold none of these strings is skipped unparsed (`readJsonlTail`'s byte filter):
   * most of a log is tool output, and the wait re-reads the tail every poll.
   */
  readonly mustContainAny: readonly string[];
  /** Judges each parsed line that passed the filter, newest first. */
  readonly match: (entry: unknown) => LogLineMatch;
  /** How far back from the end the line is looked for. */
  readonly tailBytes: number;
  /** Re-read interval, ms. */
  readonly pollMs: number;
  /** `Date.now()` time to give up at; the log is looked at once more then. */
  readonly deadlineAt: number;
  /**
   * A log that does not exist yet: waited for always (`'wait'`), or only while its directory exists
   * (`'wait-in-directory'`: a Copilot subagent's tool hooks name a log in a directory that never does).
   */
  readonly missing: 'wait' | 'wait-in-directory';
  /** Refuse a symbolic link in the log's place (`O_NOFOLLOW`). */
  readonly noFollow?: boolean;
}

/**
 * The one bounded wait of the hooks for a log that lags behind them (Claude Code's transcript queue,
 * Copilot CLI's session log): re-read the tail every `pollMs` until a line matches or `deadlineAt`
 * passes. Only complete JSON lines count, so a line still being written is waited for, as the usage
 * readers would skip it. Only a regular file is read (`readJsonlTail` opens non-blocking and refuses
 * a FIFO or device, so neither can hang the hook). Never throws.
 *
 * Used by the monitor after every tool call, so it stays as light as its bundle: `readJsonlTail` is
 * there already for the usage readers.
 */
export async function waitForLogLine(wait: LogLineWait): Promise<LogLineWaitResult> {
  for (;;) {
    const seen = lookOnce(wait);
    if (seen !== 'not-yet') return seen;
    const left = wait.deadlineAt - Date.now();
    if (left <= 0) return 'timeout';
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait.pollMs, left)));
  }
}

function lookOnce(wait: LogLineWait): 'found' | 'not-yet' | 'unreadable' {
  let found = false;
  try {
    readJsonlTail(wait.path, {
      maxBytes: wait.tailBytes,
      mustContainAny: wait.mustContainAny,
      ...(wait.noFollow === true ? { noFollow: true } : {}),
      visit: (entry) => {
        const match = wait.match(entry);
        found = match === 'found';
        return match === 'continue' ? 'continue' : 'stop';
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return 'unreadable';
    return wait.missing === 'wait' || isDirectory(dirname(wait.path)) ? 'not-yet' : 'unreadable';
  }
  return found ? 'found' : 'not-yet';
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
