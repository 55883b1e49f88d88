import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readClaudeLatestUsage } from './read-claude-latest-usage.ts';
import { makeTempDir } from './testing/fixtures.ts';

const temp = makeTempDir('ac-claude-latest-usage-');
afterAll(() => temp.cleanup());

let counter = 0;
function write(lines: readonly object[]): string {
  counter += 1;
  const path = join(temp.dir, `t${counter}.jsonl`);
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return path;
}

/** One assistant entry of response `id`; Claude writes one entry per content block, each with the usage so far. */
function assistant(id: string, input: number, extra: { model?: string; sidechain?: boolean; output?: number } = {}): object {
  counter += 1;
  return {
    parentUuid: null,
    isSidechain: extra.sidechain ?? false,
    message: { id, type: 'message', role: 'assistant', model: extra.model ?? 'claude-sonnet-4-5', content: [{ type: 'text', text: 'x' }], usage: { input_tokens: input, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0, output_tokens: extra.output ?? 1 } },
    type: 'assistant',
    uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString(),
  };
}

describe('readClaudeLatestUsage (Claude specifics)', () => {
  it('one response over several entries counts once, with its last entry’s counters', () => {
    const path = write([assistant('msg_a', 10), assistant('msg_b', 20, { output: 5 }), assistant('msg_b', 20, { output: 9 })]);
    const found = readClaudeLatestUsage({ transcriptPath: path });
    expect(found?.usage).toMatchObject({ contextTokens: 1020, outputTokens: 9 });
    expect(found?.history.map((u) => u.contextTokens)).toEqual([1010, 1020]);
    // history: 2 means two responses, not two entries.
    expect(readClaudeLatestUsage({ transcriptPath: path, history: 2 })?.history.map((u) => u.contextTokens)).toEqual([1010, 1020]);
  });

  it('skips synthetic entries, sidechain entries and the api-request log', () => {
    const path = write([
      assistant('msg_a', 500),
      assistant('msg_sub', 90_000, { sidechain: true }),
      { type: 'api-request', requestId: 'r', usage: { input_tokens: 77_777 } },
      assistant('msg_err', 0, { model: '<synthetic>' }),
    ]);
    expect(readClaudeLatestUsage({ transcriptPath: path })?.history.map((u) => u.contextTokens)).toEqual([1500]);
  });

  it('finds nothing in a file of prompts and tool results only', () => {
    const path = write([{ parentUuid: null, isSidechain: false, type: 'user', uuid: 'u1', message: { role: 'user', content: 'the "usage" of this word' } }]);
    expect(readClaudeLatestUsage({ transcriptPath: path })).toBeUndefined();
  });
});
