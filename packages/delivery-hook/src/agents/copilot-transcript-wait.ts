import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { readJsonlTail } from '@agent-checkpoint/core/transcript-tail';

/** How often the log is looked at again, and how far back: its own `hook.start` is among the last lines. */
const POLL_MS = 40;
const TAIL_BYTES = 256 * 1024;

/**
 * Copilot CLI 1.0.102 writes its session log behind the session: at `agentStop` the file may not
 * exist yet (a new session's first turn) or may lack the turn's last events. The `hook.start` event of
 * this very call (`hookType: "agentStop"`, `input.timestamp` = the payload's `timestamp`) marks that the
 * log has caught up with the stop. Waits for it until `deadlineAt`; resolves to undefined once seen,
 * else to the warning to print. Reads only the log's tail, never a FIFO (`readJsonlTail` refuses one).
 */
export async function awaitCopilotHookStart(path: string | undefined, timestamp: number, deadlineAt: number): Promise<string | undefined> {
  if (path === undefined) return undefined;
  for (;;) {
    const seen = hookStartSeen(path, timestamp);
    if (seen === 'yes') return undefined;
    if (seen === 'unreadable') return `the Copilot session log ${path} is not a readable file; deciding without it`;
    if (Date.now() + POLL_MS > deadlineAt) {
      return `the Copilot session log ${path} had not caught up with this stop (no hook.start for timestamp ${timestamp}) in time; deciding on what it holds`;
    }
    await sleep(POLL_MS);
  }
}

function hookStartSeen(path: string, timestamp: number): 'yes' | 'not-yet' | 'unreadable' {
  try {
    if (!statSync(path).isFile()) return 'unreadable';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not-yet' : 'unreadable';
  }
  let found = false;
  try {
    readJsonlTail(path, {
      maxBytes: TAIL_BYTES,
      mustContainAny: ['"hook.start"'],
      noFollow: true,
      visit: (raw) => {
        const input = hookStartInput(raw);
        if (input === undefined) return 'continue';
        found = input.timestamp === timestamp;
        // An earlier agentStop's hook.start: ours is not written yet.
        return found || (typeof input.timestamp === 'number' && input.timestamp < timestamp) ? 'stop' : 'continue';
      },
    });
  } catch {
    return 'unreadable';
  }
  return found ? 'yes' : 'not-yet';
}

/** The `data.input` of an `agentStop` hook.start event, else undefined. */
function hookStartInput(raw: unknown): { readonly timestamp?: unknown } | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const event = raw as { type?: unknown; data?: { hookType?: unknown; input?: unknown } };
  if (event.type !== 'hook.start' || event.data?.hookType !== 'agentStop') return undefined;
  const input = event.data.input;
  return typeof input === 'object' && input !== null ? (input as { timestamp?: unknown }) : undefined;
}
