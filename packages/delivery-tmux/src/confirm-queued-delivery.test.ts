import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findQueuedDelivery, waitForQueuedDelivery } from './confirm-queued-delivery.ts';

/** A real queued turn written by Codex 0.169 (see __fixtures__/rollouts/README.md). */
const RECORDED = readFileSync(join(import.meta.dirname, '__fixtures__', 'rollouts', 'queue-turn-0.169.0.jsonl'), 'utf8');
const lines = RECORDED.split('\n').filter(Boolean);
const userMessage = JSON.parse(lines[3] ?? '{}') as { payload: { content: { text: string }[] } };
const TEXT = userMessage.payload.content[0]?.text ?? '';
const QUEUE_TURN = (JSON.parse(lines[1] ?? '{}') as { payload: { turn_id: string } }).payload.turn_id;

let dir: string;
let rollout: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-queue-confirm-'));
  rollout = join(dir, 'rollout.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('findQueuedDelivery (recorded Codex 0.169 queue turn)', () => {
  it('finds our message, byte-identical, in a turn the queue opened', async () => {
    expect(TEXT).toMatch(/^\[agent-checkpoint\] /);
    writeFileSync(rollout, RECORDED);
    expect(await findQueuedDelivery(rollout, 0, TEXT)).toEqual({ turnId: QUEUE_TURN });
  });

  it('does not count a different text (one byte off, or trimmed), or text before the offset', async () => {
    writeFileSync(rollout, RECORDED);
    expect(await findQueuedDelivery(rollout, 0, `${TEXT} `)).toBeUndefined();
    expect(await findQueuedDelivery(rollout, 0, TEXT.slice(1))).toBeUndefined();
    expect(await findQueuedDelivery(rollout, RECORDED.length, TEXT)).toBeUndefined();
  });

  it('does not count the same text typed by the user (a turn not opened by the queue)', async () => {
    writeFileSync(rollout, RECORDED.split('"turn_trigger":"queue"').join('"turn_trigger":"user"'));
    expect(await findQueuedDelivery(rollout, 0, TEXT)).toBeUndefined();
  });

  it('skips malformed lines and survives a missing file', async () => {
    writeFileSync(rollout, `not json\n{"payload":1}\n${RECORDED}`);
    expect(await findQueuedDelivery(rollout, 0, TEXT)).toEqual({ turnId: QUEUE_TURN });
    expect(await findQueuedDelivery(join(dir, 'missing.jsonl'), 0, TEXT)).toBeUndefined();
  });

  it('waits for the queued turn to be appended, up to its deadline', async () => {
    const [first = '', ...rest] = lines;
    writeFileSync(rollout, `${first}\n`);
    const offset = first.length + 1;
    setTimeout(() => writeFileSync(rollout, `${first}\n${rest.join('\n')}\n`), 150);
    expect(await waitForQueuedDelivery(rollout, offset, TEXT, { deadlineMs: 3000, pollMs: 25 })).toMatchObject({ turnId: QUEUE_TURN });
    expect(await waitForQueuedDelivery(rollout, offset, 'another text', { deadlineMs: 200, pollMs: 25 })).toBeUndefined();
  });
});
