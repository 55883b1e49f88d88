import { describe, expect, it } from 'vitest';
import { contentText, guessForeignAgent, parseClaudeLine } from './parse-claude-entry.ts';

describe('parseClaudeLine', () => {
  it('reads a prompt', () => {
    const parsed = parseClaudeLine({ parentUuid: null, isSidechain: false, promptId: 'p1', type: 'user', message: { role: 'user', content: 'do it' }, uuid: 'u1', timestamp: 't', promptSource: 'sdk', turnOrigin: 'sdk', cwd: '/r', version: '2.1.330' });
    expect(parsed).toEqual({
      kind: 'entry',
      entry: { kind: 'user', uuid: 'u1', timestamp: 't', cwd: '/r', version: '2.1.330', promptId: 'p1', isMeta: false, isCompactSummary: false, isVisibleInTranscriptOnly: false, promptSource: 'sdk', turnOrigin: 'sdk', text: 'do it', toolResults: [] },
    });
  });

  it('reads tool results with string, array and missing content; missing is_error is success', () => {
    const parsed = parseClaudeLine({
      type: 'user',
      uuid: 'u',
      message: {
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'x' },
          { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'p' }, { type: 'image', source: {} }, { type: 'text', text: 'q' }], is_error: true },
          { type: 'tool_result', tool_use_id: 'c' },
          { type: 'tool_result', content: 'no id' },
          { type: 'text', text: 'The user sent a new message' },
        ],
      },
    });
    expect(parsed.kind === 'entry' && parsed.entry.kind === 'user' ? parsed.entry.toolResults : undefined).toEqual([
      { toolUseId: 'a', isError: false, text: 'x' },
      { toolUseId: 'b', isError: true, text: 'p\n[image]\nq' },
      { toolUseId: 'c', isError: false },
    ]);
    expect(parsed.kind === 'entry' && parsed.entry.kind === 'user' ? parsed.entry.text : undefined).toBe('The user sent a new message');
  });

  it('reads an assistant entry: text, tool_use, usage', () => {
    const parsed = parseClaudeLine({
      type: 'assistant',
      uuid: 'a',
      message: { id: 'm', model: 'claude', content: [{ type: 'thinking', thinking: '…' }, { type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }, { type: 'tool_use', id: 't2', name: 'X', input: 'not an object' }], usage: { input_tokens: 5, cache_read_input_tokens: 7, output_tokens: 2 } },
    });
    expect(parsed).toEqual({
      kind: 'entry',
      entry: {
        kind: 'assistant', uuid: 'a', messageId: 'm', model: 'claude',
        usage: { inputTokens: 5, cacheReadInputTokens: 7, cacheCreationInputTokens: 0, outputTokens: 2 },
        toolUses: [{ id: 't', name: 'Bash', input: { command: 'ls' } }, { id: 't2', name: 'X', input: {} }],
      },
    });
  });

  it('ignores sidechain entries and bookkeeping; keeps other chain entries as chain', () => {
    expect(parseClaudeLine({ type: 'user', uuid: 'u', isSidechain: true, message: { content: 'x' } })).toEqual({ kind: 'ignored-claude' });
    expect(parseClaudeLine({ type: 'last-prompt', lastPrompt: 'x', sessionId: 's' })).toEqual({ kind: 'ignored-claude' });
    expect(parseClaudeLine({ type: 'some-future-bookkeeping', sessionId: 's' })).toEqual({ kind: 'ignored-claude' });
    expect(parseClaudeLine({ type: 'system', subtype: 'stop_hook_summary', uuid: 's1', parentUuid: 'p' })).toEqual({ kind: 'entry', entry: { kind: 'chain', uuid: 's1' } });
    expect(parseClaudeLine({ type: 'attachment', uuid: 'q', attachment: { type: 'queued_command', prompt: 'typed while busy' } })).toEqual({ kind: 'entry', entry: { kind: 'queued-prompt', uuid: 'q', text: 'typed while busy' } });
  });

  it('calls anything else foreign', () => {
    for (const value of [null, 1, 'x', [], {}, { type: 'user', id: 'gemini-style', content: [] }, { timestamp: 't', type: 'response_item', payload: {} }]) {
      expect(parseClaudeLine(value)).toEqual({ kind: 'foreign' });
    }
  });
});

describe('contentText', () => {
  it('never stringifies arrays as a repr', () => {
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }])).toBe('a\nb');
    expect(contentText([{ type: 'tool_reference', tool_name: 'X' }])).toBe('[tool_reference]');
    expect(contentText([1, null, 'x'])).toBeUndefined();
    expect(contentText({ text: 'obj' })).toBeUndefined();
  });
});

describe('guessForeignAgent', () => {
  it('recognises Codex and Gemini lines', () => {
    expect(guessForeignAgent({ timestamp: 't', type: 'session_meta', payload: { id: 'x' } })).toBe('codex');
    expect(guessForeignAgent({ sessionId: 's', projectHash: 'h', startTime: 't' })).toBe('gemini');
    expect(guessForeignAgent({ $set: { messages: [] } })).toBe('gemini');
    expect(guessForeignAgent({ id: 'x', timestamp: 't', type: 'gemini', content: 'hi' })).toBe('gemini');
    expect(guessForeignAgent({ a: 1 })).toBeUndefined();
  });
});

describe('subagent ids on tool results', () => {
  const user = (content: unknown[], toolUseResult?: unknown): unknown => ({
    parentUuid: 'p',
    isSidechain: false,
    promptId: 'x',
    type: 'user',
    message: { role: 'user', content },
    uuid: 'u',
    timestamp: '2026-11-22T02:11:49.479Z',
    ...(toolUseResult === undefined ? {} : { toolUseResult }),
  });
  const results = (raw: unknown) => {
    const parsed = parseClaudeLine(raw);
    return parsed.kind === 'entry' && parsed.entry.kind === 'user' ? parsed.entry.toolResults : [];
  };

  it('takes toolUseResult.agentId / agentType for the single result of the entry (foreground hand-back)', () => {
    expect(results(user([{ type: 'tool_result', tool_use_id: 't1', content: 'done' }], { status: 'completed', agentId: 'a20f94b6eebc13214', agentType: 'general-purpose' }))).toEqual([
      { toolUseId: 't1', isError: false, text: 'done', agentId: 'a20f94b6eebc13214', agentType: 'general-purpose' },
    ]);
  });

  it("falls back to a launch text's agentId line; with several results only each one's own text counts", () => {
    const launch = (id: string): string => `Async agent launched successfully.\nagentId: ${id} (internal ID - do not mention to user.)`;
    expect(
      results(user([{ type: 'tool_result', tool_use_id: 't1', content: launch('aaa111') }, { type: 'tool_result', tool_use_id: 't2', content: launch('bbb222') }], { agentId: 'ignored' })).map((r) => r.agentId),
    ).toEqual(['aaa111', 'bbb222']);
  });

  it('never takes an id that is not a plain name', () => {
    expect(results(user([{ type: 'tool_result', tool_use_id: 't1', content: 'x' }], { agentId: '../../etc/passwd' }))[0]?.agentId).toBeUndefined();
    expect(results(user([{ type: 'tool_result', tool_use_id: 't1', content: 'agentId: ../x' }]))[0]?.agentId).toBeUndefined();
  });
});
