import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNotifyArgv } from './parse-notify-argv.ts';
import { readNotifyPayload } from './read-notify-payload.ts';

const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '__fixtures__', 'notify', name), 'utf8');

describe('readNotifyPayload', () => {
  it('reads a real TUI turn', () => {
    const result = readNotifyPayload(fixture('tui-turn-1.json'));
    expect(result).toEqual({
      kind: 'turn-complete',
      event: {
        threadId: '01a20107-52ce-7eb2-962c-1aee279e5435',
        turnId: '01a20107-566d-7700-982b-c7149f58dec7',
        cwd: '/WORK/repo',
        client: 'codex-tui',
        inputMessages: ['fix the failing test in calc.py'],
        lastAssistantMessage: 'Fixed calc.add and added NOTES.md.',
      },
    });
  });

  it('keeps the cumulative input messages in order', () => {
    const result = readNotifyPayload(fixture('tui-turn-2-checkpoint.json'));
    if (result.kind !== 'turn-complete') throw new Error(result.reason);
    expect(result.event.inputMessages).toHaveLength(2);
    expect(result.event.inputMessages[1]).toMatch(/^\[checkpoint\] turn /);
  });

  it('reads a codex exec turn', () => {
    const result = readNotifyPayload(fixture('exec-turn.json'));
    expect(result.kind === 'turn-complete' && result.event.client).toBe('codex_exec');
  });

  it('ignores the title-generation thread', () => {
    expect(readNotifyPayload(fixture('tui-title-thread.json'))).toEqual({
      kind: 'ignored',
      reason: 'title-generation thread',
    });
  });

  it('ignores other event types', () => {
    expect(readNotifyPayload('{"type":"approval-requested","thread-id":"x"}').kind).toBe('ignored');
  });

  it('accepts unknown extra fields and a null last-assistant-message', () => {
    const raw = JSON.stringify({
      type: 'agent-turn-complete',
      'thread-id': 't1',
      'turn-id': 'u1',
      cwd: '/repo',
      'last-assistant-message': null,
      'future-field': { nested: true },
    });
    const result = readNotifyPayload(raw);
    expect(result).toEqual({
      kind: 'turn-complete',
      event: { threadId: 't1', turnId: 'u1', cwd: '/repo', inputMessages: [] },
    });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not JSON', '{"type":'],
    ['a JSON string', '"agent-turn-complete"'],
    ['an array', '[1,2]'],
    ['no thread id', '{"type":"agent-turn-complete","turn-id":"u","cwd":"/r"}'],
    ['relative cwd', '{"type":"agent-turn-complete","thread-id":"t","turn-id":"u","cwd":"repo"}'],
    ['a thread id with a path', '{"type":"agent-turn-complete","thread-id":"../../etc","turn-id":"u","cwd":"/r"}'],
    ['a thread id with a glob', '{"type":"agent-turn-complete","thread-id":"*","turn-id":"u","cwd":"/r"}'],
    ['non-string messages', '{"type":"agent-turn-complete","thread-id":"t","turn-id":"u","cwd":"/r","input-messages":[1]}'],
  ])('rejects %s', (_name, raw) => {
    expect(readNotifyPayload(raw).kind).toBe('invalid');
  });

  it('never throws on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        const result = readNotifyPayload(raw);
        expect(['turn-complete', 'ignored', 'invalid']).toContain(result.kind);
      }),
    );
  });
});

describe('parseNotifyArgv', () => {
  it('takes the last argument as the payload', () => {
    expect(parseNotifyArgv(['{"type":"x"}'])).toEqual({
      options: {},
      chain: [],
      payload: '{"type":"x"}',
      help: false,
      version: false,
      diagnostics: [],
    });
  });

  it('reads a chained notify program between -- and the payload', () => {
    const parsed = parseNotifyArgv(['--', 'notify-send', 'Codex', '--urgency=low', 'P']);
    expect(parsed.chain).toEqual(['notify-send', 'Codex', '--urgency=low']);
    expect(parsed.payload).toBe('P');
    expect(parsed.diagnostics).toEqual([]);
  });

  it('reads options before the chain', () => {
    const parsed = parseNotifyArgv(['--enter-delay-ms=150', '--idle-wait-ms=0', '--confirm-timeout-ms=900', '--', 'P']);
    expect(parsed.options).toEqual({ enterDelayMs: 150, idleWaitMs: 0, confirmTimeoutMs: 900 });
    expect(parsed.chain).toEqual([]);
    expect(parsed.payload).toBe('P');
  });

  it('reports unknown and malformed options without failing', () => {
    const parsed = parseNotifyArgv(['--frobnicate', '--enter-delay-ms=-4', '--enter-delay-ms', 'P']);
    expect(parsed.payload).toBe('P');
    expect(parsed.options).toEqual({});
    expect(parsed.diagnostics).toHaveLength(3);
  });

  it('has no payload when called with nothing', () => {
    expect(parseNotifyArgv([]).payload).toBeUndefined();
    expect(parseNotifyArgv(['--']).payload).toBeUndefined();
  });

  it('recognises --help and --version on their own', () => {
    expect(parseNotifyArgv(['--help']).help).toBe(true);
    expect(parseNotifyArgv(['--help']).payload).toBeUndefined();
    expect(parseNotifyArgv(['--version']).version).toBe(true);
  });
});
