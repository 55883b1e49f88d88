/**
 * Issue 11: Gemini records our deny reason as an ordinary user message, so only the session's record
 * of what it delivered tells it from a prompt the user started with our prefix. Built from the real
 * 0.61 headless run with a deny (`session-headless-deny-tools.jsonl`).
 */
import { readFileSync } from 'node:fs';
import { deliveredMessageDigest } from '@agent-checkpoint/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PREFIX, PROMPT, fixture, makeTempDir, read } from './gemini-test-support.ts';

const REASON = 'CHECKPOINT-PROBE: run the tests';
const TYPED = `${PREFIX} please do the task.`;

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => {
  temp.cleanup();
});

/** The run with its prompt typed as `CHECKPOINT-PROBE: please do the task.`. */
function prefixedPrompt(): string {
  const text = readFileSync(fixture('session-headless-deny-tools.jsonl'), 'utf8').replaceAll(`"text":"${PROMPT}"`, `"text":${JSON.stringify(TYPED)}`);
  expect(text).toContain(TYPED);
  return temp.write('session.jsonl', text);
}

describe('delivered checkpoints (Gemini)', () => {
  it('a prompt starting with our prefix opens the turn; the delivered deny reason counts once', () => {
    const timeline = read(prefixedPrompt(), { hint: { prompt: TYPED }, deliveredDigests: [deliveredMessageDigest(REASON)] });
    expect(timeline).toMatchObject({ hasData: true, prompt: TYPED, checkpointsDelivered: 1 });
    expect(timeline.calls.length).toBe(7);
  });

  it('without a hint the prefixed prompt is still the boundary', () => {
    const timeline = read(prefixedPrompt(), { deliveredDigests: [deliveredMessageDigest(REASON)] });
    expect(timeline).toMatchObject({ prompt: TYPED, checkpointsDelivered: 1 });
  });

  it('a deny reason the session did not deliver is not counted', () => {
    expect(read(fixture('session-headless-deny-tools.jsonl'), { hint: { prompt: PROMPT }, deliveredDigests: [] }).checkpointsDelivered).toBe(0);
  });
});
