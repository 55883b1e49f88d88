import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, makeTempDir, toJsonl } from './gemini-test-support.ts';
import { readGeminiLatestUsage } from './read-gemini-latest-usage.ts';

/**
 * A resumed 0.61 session (`gemini -p … --resume <id>`), recorded with the real CLI against the mock
 * (every call reports `tokens.input = 100000`; fixtures/gemini/0.61.0/resumed/, README there).
 * Resumed in the minute the session started, the fresh run's header lands in the conversation's own
 * file (same name) and wipes its message list; the resume then rebuilds the list from the model
 * history without `tokens`. At the resumed run's BeforeAgent that rewrite is the file's last record.
 */
const resumed = (name: string): string => fixture(`resumed/${name}`);

const temp = makeTempDir('ac-gemini-resumed-usage-');
afterAll(() => temp.cleanup());

const META = { sessionId: 's1', projectHash: 'p', startTime: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:00:00.000Z', kind: 'main' };
const CONTEXT = { id: 'ctx', timestamp: '2026-01-01T00:00:00.500Z', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.</session_context>' }] };
const user = (id: string, text = 'do it') => ({ id, timestamp: '2026-01-01T00:00:01.000Z', type: 'user', content: [{ text }] });
const gemini = (id: string, input?: number, timestamp = '2026-01-01T00:00:02.000Z') => ({
  id,
  timestamp,
  type: 'gemini',
  content: 'answer',
  ...(input === undefined ? {} : { tokens: { input, output: 3, cached: 0, thoughts: 0, tool: 0, total: input + 3 }, model: 'gemini-2.5-flash' }),
});
/** What 0.61's `updateMessagesFromHistory` writes for a message it did not find: no tokens, no model, a new timestamp, parts. */
const rebuilt = (id: string) => ({ id, timestamp: '2026-01-01T00:05:00.000Z', type: 'gemini', content: [{ text: 'answer' }] });

describe('readGeminiLatestUsage on a resumed session (real 0.61 recordings)', () => {
  it('at the resumed run\'s BeforeAgent (same minute): the first run\'s usage, from before the rewrite that dropped it', () => {
    const path = resumed('resume-same-minute.at-second-BeforeAgent.jsonl');
    // The real shape: the last record is the rebuilt list, its `gemini` message without tokens.
    const last = JSON.parse(readFileSync(path, 'utf8').trim().split('\n').at(-1) ?? '{}') as { $set?: { messages?: Array<Record<string, unknown>> } };
    const answer = last.$set?.messages?.find((m) => m['type'] === 'gemini');
    expect(answer).toBeDefined();
    expect(answer?.['tokens']).toBeUndefined();

    const found = readGeminiLatestUsage({ transcriptPath: path });
    expect(found?.usage).toEqual({ contextTokens: 100_000, outputTokens: 10, model: 'gemini-2.5-flash', timestamp: '2026-11-26T09:37:04.057Z' });
    expect(found?.history).toHaveLength(1);
  });

  it('after the resumed turn (same minute): the new answer is the latest, the carried one is history', () => {
    const found = readGeminiLatestUsage({ transcriptPath: resumed('resume-same-minute.jsonl') });
    expect(found?.usage.contextTokens).toBe(100_000);
    expect(found?.history.map((u) => u.timestamp)).toEqual(['2026-11-26T09:37:04.057Z', '2026-11-26T09:37:08.867Z']);
  });

  it('resumed in a later minute: 0.61 kept the tokens in the rewrite; the header-only fresh file has no usage', () => {
    expect(readGeminiLatestUsage({ transcriptPath: resumed('resume-next-minute.at-second-BeforeAgent.jsonl') })?.usage.contextTokens).toBe(100_000);
    expect(readGeminiLatestUsage({ transcriptPath: resumed('resume-next-minute.jsonl') })?.history).toHaveLength(2);
    expect(readGeminiLatestUsage({ transcriptPath: resumed('resume-next-minute.fresh-file.jsonl') })).toBeUndefined();
  });
});

describe('readGeminiLatestUsage: usage carried across a $set.messages rewrite', () => {
  it('a rewrite listing messages without tokens keeps the usage of their earlier copies, in the rewrite\'s order', () => {
    const path = temp.write(
      'carry.jsonl',
      toJsonl([META, { $set: { messages: [CONTEXT] } }, user('u1'), gemini('g1', 100, 'T1'), user('u2'), gemini('g2', 300, 'T2'), { $set: { messages: [CONTEXT] } }, { $set: { sessionId: 's1' } }, { $set: { messages: [CONTEXT, user('u1'), rebuilt('g1'), user('u2'), rebuilt('g2')] } }]),
    );
    const found = readGeminiLatestUsage({ transcriptPath: path });
    expect(found?.history.map((u) => [u.contextTokens, u.timestamp])).toEqual([
      [100, 'T1'],
      [300, 'T2'],
    ]);
    expect(found?.usage).toMatchObject({ contextTokens: 300, model: 'gemini-2.5-flash' });
  });

  it('only messages the rewrite still lists count: a dropped message\'s usage is not carried', () => {
    const path = temp.write('dropped.jsonl', toJsonl([META, user('u1'), gemini('g1', 100), user('u2'), gemini('g2', 900), { $set: { messages: [CONTEXT, user('u1'), rebuilt('g1')] } }]));
    expect(readGeminiLatestUsage({ transcriptPath: path })?.history.map((u) => u.contextTokens)).toEqual([100]);
  });

  it('a newer copy after the rewrite decides for its id (last copy wins), and a newer answer is the latest', () => {
    const path = temp.write('newer.jsonl', toJsonl([META, user('u1'), gemini('g1', 100), { $set: { messages: [CONTEXT, user('u1'), rebuilt('g1')] } }, user('u2'), gemini('g2', 150)]));
    expect(readGeminiLatestUsage({ transcriptPath: path })?.history.map((u) => u.contextTokens)).toEqual([100, 150]);
  });

  it('a $rewindTo after the rewrite still removes a carried message', () => {
    const path = temp.write('rewind.jsonl', toJsonl([META, user('u1'), gemini('g1', 100), user('u2'), gemini('g2', 300), { $set: { messages: [CONTEXT, user('u1'), rebuilt('g1'), user('u2'), rebuilt('g2')] } }, { $rewindTo: 'u2' }]));
    expect(readGeminiLatestUsage({ transcriptPath: path })?.history.map((u) => u.contextTokens)).toEqual([100]);
  });

  it('usage carried through two rewrites (resumed twice), each id from its own newest copy with tokens', () => {
    const path = temp.write(
      'twice.jsonl',
      toJsonl([META, user('u1'), gemini('g1', 100), { $set: { messages: [CONTEXT, user('u1'), rebuilt('g1')] } }, user('u2'), gemini('g2', 200), { $set: { messages: [CONTEXT, user('u1'), rebuilt('g1'), user('u2'), rebuilt('g2')] } }]),
    );
    expect(readGeminiLatestUsage({ transcriptPath: path })?.history.map((u) => u.contextTokens)).toEqual([100, 200]);
  });

  it('the search past a rewrite stays within the cap: usage only beyond it is not found', () => {
    const filler = Array.from({ length: 40 }, (_, i) => user(`f${i}`, 'x'.repeat(2000)));
    const path = temp.write('far.jsonl', toJsonl([META, user('u1'), gemini('g1', 100), ...filler, { $set: { messages: [CONTEXT, user('u1'), rebuilt('g1')] } }]));
    expect(readGeminiLatestUsage({ transcriptPath: path, maxBytes: 64 * 1024 })).toBeUndefined();
    const found = readGeminiLatestUsage({ transcriptPath: path, maxBytes: 1024 * 1024 });
    expect(found?.usage.contextTokens).toBe(100);
    expect(found?.readStats.bytesRead).toBeLessThanOrEqual(1024 * 1024);
  });

  it('a rewrite that keeps its tokens (a later-minute resume, tool-output masking) ends the read as before', () => {
    const path = temp.write('kept.jsonl', toJsonl([META, user('u1'), gemini('g1', 999), { $set: { messages: [CONTEXT, user('u9'), gemini('g9', 40)] } }]));
    expect(readGeminiLatestUsage({ transcriptPath: path })?.history.map((u) => u.contextTokens)).toEqual([40]);
  });
});
