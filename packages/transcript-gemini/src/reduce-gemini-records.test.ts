import { describe, expect, it } from 'vitest';
import { classifyGeminiRecord } from './gemini-record.ts';
import { fixtureRecords } from './gemini-test-support.ts';
import { reduceGeminiRecords } from './reduce-gemini-records.ts';

const msg = (id: string, text: string, type = 'user') => ({ id, timestamp: 't', type, content: type === 'user' ? [{ text }] : text });
const reduce = (records: unknown[]) => reduceGeminiRecords(records.map(classifyGeminiRecord));
const ids = (records: unknown[]) => reduce(records).messages.map((m) => m.id);
const texts = (records: unknown[]) =>
  reduce(records).messages.map((m) => {
    const content = m.raw['content'];
    return typeof content === 'string' ? content : (content as Array<{ text: string }>)[0]?.text;
  });

describe('reduceGeminiRecords', () => {
  it('keeps the last copy per id, in first-seen order', () => {
    const records = [msg('a', 'a1'), msg('b', 'b1', 'gemini'), msg('a', 'a2'), msg('c', 'c1'), msg('b', 'b2', 'gemini')];
    expect(ids(records)).toEqual(['a', 'b', 'c']);
    expect(texts(records)).toEqual(['a2', 'b2', 'c1']);
  });

  it('reduces the real recording to one copy of each message with its tool calls', () => {
    const records = fixtureRecords('session-headless-deny-tools.jsonl');
    const reduced = reduce(records);
    const messageLines = records.filter((r) => typeof r['id'] === 'string');
    expect(messageLines.length).toBeGreaterThan(reduced.messages.length);
    expect(new Set(reduced.messages.map((m) => m.id)).size).toBe(reduced.messages.length);
    // The gemini message appended first without toolCalls is replaced by its later copy.
    const first = reduced.messages.find((m) => m.id === '697399e5-249c-458a-b266-dcf7b220f86d');
    expect(Array.isArray(first?.raw['toolCalls'])).toBe(true);
    expect(reduced.sessionId).toBe('c16cc519-31e7-44ba-ba68-8c5ef3ba283b');
    // session context, prompt, 5 tool-call messages + 5 results, final text, reason, 1 tool-call
    // message + 1 result, final text.
    expect(reduced.messages).toHaveLength(17);
    expect(reduced.messages[0]?.id).toBe('d04923d38bb0f6017037e74183378ef4');
    expect(reduced.messages.map((m) => m.type).join(',')).toBe(
      'user,user,gemini,user,gemini,user,gemini,user,gemini,user,gemini,user,gemini,user,gemini,user,gemini',
    );
  });

  it('$set.messages replaces the whole list; later records append to the new list', () => {
    const records = [
      msg('a', 'a'),
      msg('b', 'b'),
      { $set: { messages: [msg('x', 'x'), msg('b', 'b-rewritten')], lastUpdated: 't' } },
      msg('c', 'c'),
      msg('x', 'x2'),
    ];
    expect(ids(records)).toEqual(['x', 'b', 'c']);
    expect(texts(records)).toEqual(['x2', 'b-rewritten', 'c']);
  });

  it('a $set without messages patches metadata only', () => {
    expect(ids([msg('a', 'a'), { $set: { lastUpdated: 't', summary: 's' } }, msg('b', 'b')])).toEqual(['a', 'b']);
    expect(reduce([{ $set: { sessionId: 's2' } }]).sessionId).toBe('s2');
  });

  it('$rewindTo removes the target and everything after it', () => {
    expect(ids([msg('a', 'a'), msg('b', 'b'), msg('c', 'c'), { $rewindTo: 'b' }, msg('d', 'd')])).toEqual(['a', 'd']);
  });

  it('$rewindTo removes everything when the id is unknown', () => {
    expect(ids([msg('a', 'a'), msg('b', 'b'), { $rewindTo: 'nope' }, msg('d', 'd')])).toEqual(['d']);
  });

  it('a message re-appended after a rewind that removed it comes back at the end', () => {
    expect(ids([msg('a', 'a'), msg('b', 'b'), msg('c', 'c'), { $rewindTo: 'b' }, msg('b', 'b again')])).toEqual(['a', 'b']);
    expect(ids([msg('a', 'a'), msg('b', 'b'), { $rewindTo: 'a' }, msg('c', 'c'), msg('a', 'a again')])).toEqual(['c', 'a']);
  });

  it('messages on a metadata line (single-line older document) form the initial list', () => {
    const records = [{ sessionId: 's', projectHash: 'h', messages: [msg('a', 'a'), msg('b', 'b')] }, msg('c', 'c')];
    expect(ids(records)).toEqual(['a', 'b', 'c']);
    expect(reduce(records).sessionId).toBe('s');
  });

  it('skips unknown records and malformed list items', () => {
    const records = [42, null, 'x', { foo: 1 }, { $set: { messages: [1, { id: 'no-type' }, msg('a', 'a')] } }, { id: 7, type: 'user' }];
    expect(ids(records)).toEqual(['a']);
  });
});

describe('classifyGeminiRecord', () => {
  it('classifies like the CLI loader: rewind, message, $set, metadata', () => {
    expect(classifyGeminiRecord({ $rewindTo: 'a', id: 'x', type: 'user' }).kind).toBe('rewind');
    expect(classifyGeminiRecord({ id: 'x', type: 'user', $set: {} }).kind).toBe('message');
    expect(classifyGeminiRecord({ $set: { lastUpdated: 't' } }).kind).toBe('set');
    expect(classifyGeminiRecord({ sessionId: 's', projectHash: 'h' }).kind).toBe('metadata');
  });

  it('recognises other agents’ lines', () => {
    expect(classifyGeminiRecord({ type: 'response_item', payload: { type: 'message' } })).toEqual({ kind: 'unknown', foreign: 'codex' });
    expect(classifyGeminiRecord({ type: 'user', uuid: 'u', sessionId: 's', message: {} })).toEqual({ kind: 'unknown', foreign: 'claude' });
    expect(classifyGeminiRecord({ type: 'user' })).toEqual({ kind: 'unknown' });
  });
});
