/**
 * Claude Code 1.0.x wrote no `promptId`, `promptSource` or `turnOrigin`: a turn starts at the last
 * genuine user message (string content, or text blocks without a tool result), never at a
 * tool-result entry. Built from the real 2.1.330 two-turn recording with those fields removed, as
 * 1.0.x wrote its entries (`parentUuid`, `isSidechain`, `userType`, `cwd`, `sessionId`, `version`,
 * `type`, `message`, `uuid`, `timestamp`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readClaudeTurn } from './read-claude-turn.ts';
import { fixture, makeTempDir, PROBE_PREFIX, summarize } from './testing/fixtures.ts';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.cleanup());

const V1_KEYS = ['parentUuid', 'isSidechain', 'userType', 'cwd', 'sessionId', 'version', 'type', 'message', 'uuid', 'timestamp', 'toolUseResult', 'requestId'];

/** The recording's chain entries in 1.0.x form (other lines dropped: 1.0.x wrote only `summary` besides). */
function v1Lines(): string[] {
  return readFileSync(fixture('recorded/second-turn.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => (entry['type'] === 'user' || entry['type'] === 'assistant') && typeof entry['uuid'] === 'string')
    .map((entry) => JSON.stringify(Object.fromEntries(V1_KEYS.filter((key) => key in entry).map((key) => [key, key === 'version' ? '1.0.3' : entry[key]]))));
}

const read = (lines: readonly string[]) => {
  const path = join(temp.dir, 'transcript.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return readClaudeTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, flushWaitMs: 0 });
};

describe('Claude Code 1.0.x transcripts (no prompt ids)', () => {
  it('the last genuine prompt opens the turn; tool results do not', async () => {
    const lines = v1Lines();
    expect(lines.some((line) => line.includes('promptId'))).toBe(false);
    const timeline = await read(lines);
    expect(timeline).toMatchObject({ hasData: true, truncated: false, prompt: 'Add a farewell line to it.', cliVersion: '1.0.3', checkpointsDelivered: 0 });
    expect(timeline.calls.map(summarize)).toEqual([{ kind: 'edit', rawName: 'Edit', outcome: 'success', paths: ['/WORK/repo/greeting.txt'] }]);
  });

  it('the file as it stood when the first turn ended reads as the first turn', async () => {
    const lines = v1Lines();
    const second = lines.findIndex((line) => line.includes('"content":"Add a farewell line to it."'));
    const timeline = await read(lines.slice(0, second));
    expect(timeline).toMatchObject({ prompt: 'Show me the greeting.' });
    expect(timeline.calls.map((call) => call.rawName)).toEqual(['Read']);
  });
});
