import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, toJsonl } from './gemini-test-support.ts';
import { readGeminiLatestUsage } from './read-gemini-latest-usage.ts';

const temp = makeTempDir('ac-gemini-latest-usage-');
afterAll(() => temp.cleanup());

const META = { sessionId: 's1', projectHash: 'p', startTime: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:00:00.000Z', kind: 'main' };
const user = (id: string) => ({ id, timestamp: '2026-01-01T00:00:01.000Z', type: 'user', content: [{ text: 'do it' }] });
const gemini = (id: string, input?: number) => ({
  id,
  timestamp: '2026-01-01T00:00:02.000Z',
  type: 'gemini',
  content: '',
  ...(input === undefined ? {} : { tokens: { input, output: 3, cached: 0, thoughts: 0, tool: 0, total: input + 3 } }),
  model: 'gemini-2.5-flash',
});

describe('readGeminiLatestUsage (Gemini specifics)', () => {
  it('a message re-appended with its tokens counts in its first position, once', () => {
    const path = temp.write('reappend.jsonl', toJsonl([META, user('u1'), gemini('g1', 100), gemini('g2'), gemini('g2', 250)]));
    const found = readGeminiLatestUsage({ transcriptPath: path });
    expect(found?.history.map((u) => u.contextTokens)).toEqual([100, 250]);
    expect(found?.usage).toMatchObject({ contextTokens: 250, outputTokens: 3, model: 'gemini-2.5-flash' });
  });

  it('a $rewindTo removes the usage of the messages it drops', () => {
    const path = temp.write('rewind.jsonl', toJsonl([META, user('u1'), gemini('g1', 100), user('u2'), gemini('g2', 900), { $rewindTo: 'u2' }]));
    expect(readGeminiLatestUsage({ transcriptPath: path })?.history.map((u) => u.contextTokens)).toEqual([100]);
  });

  it('a $set.messages rewrite replaces everything before it', () => {
    const path = temp.write('set.jsonl', toJsonl([META, user('u1'), gemini('g1', 100), { $set: { messages: [user('u9'), gemini('g9', 40)] } }, gemini('g10', 60)]));
    expect(readGeminiLatestUsage({ transcriptPath: path })?.history.map((u) => u.contextTokens)).toEqual([40, 60]);
  });

  it('an older single-document .json recording is parsed whole', () => {
    const path = temp.write('legacy.json', JSON.stringify({ ...META, messages: [user('u1'), gemini('g1', 100), gemini('g2', 300)] }, null, 2));
    const found = readGeminiLatestUsage({ transcriptPath: path });
    expect(found?.usage.contextTokens).toBe(300);
    expect(found?.readStats.bytesRead).toBe(found?.readStats.fileBytes);
  });
});
