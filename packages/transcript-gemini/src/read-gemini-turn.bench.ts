// `pnpm --filter @agent-checkpoint/transcript-gemini bench`: time to read the current turn of a
// ~50 MiB recording (turn longer than the cap, and a fresh prompt at the end) and of a real one.
import { appendFileSync, closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { afterAll, bench, describe } from 'vitest';
import { PROMPT, fixture, fixtureRecords, makeTempDir, read, toJsonl } from './gemini-test-support.ts';

const records = fixtureRecords('session-headless-deny-tools.jsonl');
const rounds = toJsonl(records.slice(4, 28));
const temp = makeTempDir('ac-gemini-bench-');
afterAll(() => temp.cleanup());

function build(name: string, withFreshPrompt: boolean): string {
  const path = `${temp.dir}/${name}`;
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, toJsonl(records.slice(0, 4)));
    for (let n = 0, size = 0; size < 50 * 1024 * 1024; n += 1) {
      const text = rounds.replace(/"id":"([^"]+)"/g, (_m, id: string) => `"id":"${id}-r${n}"`);
      writeSync(fd, text);
      size += text.length;
    }
  } finally {
    closeSync(fd);
  }
  if (withFreshPrompt) {
    appendFileSync(path, toJsonl([{ id: 'fresh', timestamp: 't', type: 'user', content: [{ text: 'Now run the tests.' }] }]) + rounds.replace(/"id":"([^"]+)"/g, '"id":"$1-fresh"'));
  }
  return path;
}

const longTurn = build('long-turn.jsonl', false);
const freshPrompt = build('fresh-prompt.jsonl', true);
const tinyTail = `${temp.dir}/tiny-tail.jsonl`;
writeFileSync(tinyTail, `${readFileSync(fixture('session-headless-deny-tools.jsonl'), 'utf8')}${'{}\n'.repeat(170_000)}`);

describe('readGeminiTurn', () => {
  bench('50 MiB, turn longer than the 512 KiB cap (truncated)', () => {
    read(longTurn, { hint: { prompt: PROMPT } });
  });
  bench('50 MiB, new prompt near the end (stops at the boundary)', () => {
    read(freshPrompt, { hint: { prompt: 'Now run the tests.' } });
  });
  bench('real 12 KiB recording', () => {
    read(fixture('session-headless-deny-tools.jsonl'), { hint: { prompt: PROMPT } });
  });
  // Target (issue 11): under 550 ms with a 500 ms deadline (the deadline plus one clock interval of
  // 256 lines), with a `deadline` diagnostic.
  bench('real recording + 170k tiny lines, 500 ms deadline', () => {
    read(tinyTail, { hint: { prompt: PROMPT }, deadlineAt: Date.now() + 500 });
  });
});
