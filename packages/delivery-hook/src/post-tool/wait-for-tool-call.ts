import type { AgentId } from '@agent-checkpoint/core/hot-path';
import { waitForLogLine, type LogLineWaitResult } from '../wait-for-log-line.ts';

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
 * Wait until the transcript's tail holds a complete line with `mark` (the payload's write mark for
 * this call), re-reading every {@link POLL_MS} ms until `deadlineAt` (wait-for-log-line.ts, the wait
 * the Copilot stop shares). A missing file is waited for only while its directory exists: a Copilot
 * subagent's tool hooks name a session log in a directory that never exists.
 */
export function waitForToolCall(transcriptPath: string, mark: string, deadlineAt: number): Promise<LogLineWaitResult> {
  return waitForLogLine({ path: transcriptPath, mustContainAny: [mark], match: () => 'found', tailBytes: TAIL_BYTES, pollMs: POLL_MS, deadlineAt, missing: 'wait-in-directory' });
}
