import { open } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Is our queued message in the rollout? Reads `rolloutPath` from byte `fromOffset` (its size when
 * the item was queued) and looks for a turn opened by the queue (`event_msg task_started` with
 * `turn_attribution.turn_trigger: "queue"`) whose user message is exactly `text`, byte for byte
 * (`response_item` `message` of role `user`, or `item_completed` `UserMessage`).
 *
 * Returns the queue turn's id when found. Reads at most `maxBytes`; malformed lines are skipped
 * (the rollout is untrusted input).
 */
export async function findQueuedDelivery(
  rolloutPath: string,
  fromOffset: number,
  text: string,
  maxBytes = 16 * 1024 * 1024,
): Promise<{ turnId: string } | undefined> {
  let chunk: string;
  try {
    const handle = await open(rolloutPath, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.max(0, Math.min(size - fromOffset, maxBytes));
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, fromOffset);
      chunk = buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  let queueTurn: string | undefined;
  for (const line of chunk.split('\n')) {
    if (!line.includes('"payload"')) continue;
    let entry: { type?: unknown; payload?: Record<string, unknown> };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    const payload = entry.payload;
    if (payload === undefined || typeof payload !== 'object' || payload === null) continue;
    if (entry.type === 'event_msg' && payload['type'] === 'task_started') {
      const attribution = payload['turn_attribution'] as { turn_trigger?: unknown } | undefined;
      queueTurn = attribution?.turn_trigger === 'queue' && typeof payload['turn_id'] === 'string' ? payload['turn_id'] : undefined;
      continue;
    }
    if (queueTurn === undefined) continue;
    if (userMessageText(entry.type, payload) === text) return { turnId: queueTurn };
  }
  return undefined;
}

function userMessageText(type: unknown, payload: Record<string, unknown>): string | undefined {
  if (type === 'response_item' && payload['type'] === 'message' && payload['role'] === 'user') {
    return joinTexts(payload['content'], 'input_text');
  }
  if (type === 'event_msg' && payload['type'] === 'item_completed') {
    const item = payload['item'] as { type?: unknown; content?: unknown } | undefined;
    if (item?.type === 'UserMessage') return joinTexts(item.content, 'text');
  }
  return undefined;
}

function joinTexts(content: unknown, kind: string): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const parts = content.filter((c): c is { type: string; text: string } => typeof c === 'object' && c !== null && c.type === kind && typeof c.text === 'string');
  return parts.length === 0 ? undefined : parts.map((p) => p.text).join('');
}

/** Poll {@link findQueuedDelivery} until found or `deadlineMs` passed. */
export async function waitForQueuedDelivery(
  rolloutPath: string,
  fromOffset: number,
  text: string,
  options: { readonly deadlineMs: number; readonly pollMs?: number },
): Promise<{ turnId: string; afterMs: number } | undefined> {
  const started = Date.now();
  for (;;) {
    const found = await findQueuedDelivery(rolloutPath, fromOffset, text);
    if (found) return { ...found, afterMs: Date.now() - started };
    if (Date.now() - started >= options.deadlineMs) return undefined;
    await sleep(options.pollMs ?? 100);
  }
}
