import { waitForLogLine } from '../wait-for-log-line.ts';

/** How often the log is looked at again, and how far back: its own `hook.start` is among the last lines. */
const POLL_MS = 40;
const TAIL_BYTES = 256 * 1024;

/**
 * Copilot CLI 1.0.102 writes its session log behind the session: at `agentStop` the file may not
 * exist yet (a new session's first turn) or may lack the turn's last events. The `hook.start` event of
 * this very call (`hookType: "agentStop"`, `input.timestamp` = the payload's `timestamp`) marks that the
 * log has caught up with the stop. Waits for it until `deadlineAt`; resolves to undefined once seen,
 * else to the warning to print. The wait is the monitor's too (wait-for-log-line.ts): only the tail,
 * never a FIFO.
 */
export async function awaitCopilotHookStart(path: string | undefined, timestamp: number, deadlineAt: number): Promise<string | undefined> {
  if (path === undefined) return undefined;
  const waited = await waitForLogLine({
    path,
    mustContainAny: ['"hook.start"'],
    match: (raw) => {
      const input = hookStartInput(raw);
      if (input === undefined) return 'continue';
      if (input.timestamp === timestamp) return 'found';
      // An earlier agentStop's hook.start: ours is not written yet.
      return typeof input.timestamp === 'number' && input.timestamp < timestamp ? 'older' : 'continue';
    },
    tailBytes: TAIL_BYTES,
    pollMs: POLL_MS,
    deadlineAt,
    // A new session's first turn: the log may not exist yet.
    missing: 'wait',
    noFollow: true,
  });
  switch (waited) {
    case 'found':
      return undefined;
    case 'unreadable':
      return `the Copilot session log ${path} is not a readable file; deciding without it`;
    case 'timeout':
      return `the Copilot session log ${path} had not caught up with this stop (no hook.start for timestamp ${timestamp}) in time; deciding on what it holds`;
  }
}

/** The `data.input` of an `agentStop` hook.start event, else undefined. */
function hookStartInput(raw: unknown): { readonly timestamp?: unknown } | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const event = raw as { type?: unknown; data?: { hookType?: unknown; input?: unknown } };
  if (event.type !== 'hook.start' || event.data?.hookType !== 'agentStop') return undefined;
  const input = event.data.input;
  return typeof input === 'object' && input !== null ? (input as { timestamp?: unknown }) : undefined;
}
