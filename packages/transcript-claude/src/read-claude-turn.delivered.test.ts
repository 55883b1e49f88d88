/**
 * Issue 11: a user prompt that starts with our message prefix is a prompt, not a delivered checkpoint.
 * Only Stop-hook feedback (by structure) and messages the session recorded as delivered count.
 * Built from the real 2.1.330 recording of a JSON block (`stop-block-json.jsonl`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deliveredMessageDigest } from '@agent-checkpoint/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readClaudeTurn } from './read-claude-turn.ts';
import { fixture, makeTempDir, PROBE_PREFIX } from './testing/fixtures.ts';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.cleanup());

const PROMPT = `${PROBE_PREFIX}: do the task`;

/** The recording with its prompt typed as `CHECKPOINT-PROBE: do the task`. */
function prefixedPrompt(): string {
  const text = readFileSync(fixture('stop-block-json.jsonl'), 'utf8').replaceAll('"content":"do the task"', `"content":${JSON.stringify(PROMPT)}`);
  expect(text).toContain(PROMPT);
  const path = join(temp.dir, 'transcript.jsonl');
  writeFileSync(path, text);
  return path;
}

const read = (path: string, deliveredDigests?: readonly string[]) =>
  readClaudeTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, flushWaitMs: 0, ...(deliveredDigests ? { deliveredDigests } : {}) });

describe('delivered checkpoints', () => {
  it('a prompt starting with our prefix opens the turn; only the Stop-hook feedback counts', async () => {
    const timeline = await read(prefixedPrompt(), []);
    expect(timeline).toMatchObject({ hasData: true, prompt: PROMPT, checkpointsDelivered: 1, truncated: false });
    expect(timeline.calls.length).toBeGreaterThan(1);
  });

  it('the same text counts when the session delivered exactly it (typed delivery)', async () => {
    const timeline = await read(prefixedPrompt(), [deliveredMessageDigest(PROMPT)]);
    expect(timeline.checkpointsDelivered).toBe(2);
    expect(timeline.prompt).not.toBe(PROMPT);
  });
});
