import { AGENT_IDS } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { readHookPayload } from './read-hook-payload.ts';

import { codexStopPayloads, fixturePayload } from './test-support/recorded-payloads.ts';

// Real payloads recorded from the CLIs (fixtures/<agent>/<version>/, see their README.md files).
const payload = fixturePayload;

describe('readHookPayload', () => {
  it('reads a real Claude Code 2.1.330 Stop payload', () => {
    const result = readHookPayload('claude', payload('claude-stop-first'));
    expect(result).toEqual({
      kind: 'event',
      event: {
        agent: 'claude',
        eventName: 'Stop',
        isTurnEnd: true,
        sessionId: '246ebb37-79b2-4651-a3d8-dbe841d77578',
        transcriptPath: '/home/user/.claude/projects/-home-user-repo/246ebb37-79b2-4651-a3d8-dbe841d77578.jsonl',
        cwd: '/home/user/repo',
        stopHookActive: false,
        hint: { turnId: '26503c65-2dad-486e-b957-ffba2c73ee59', lastAssistantMessage: 'All done: notes.txt now says alpha/gamma.' },
        runningBackgroundTasks: 0,
      },
    });
  });

  it('reads stop_hook_active on the Claude stop after a block', () => {
    const result = readHookPayload('claude', payload('claude-stop-after-block'));
    expect(result).toMatchObject({ kind: 'event', event: { stopHookActive: true, hint: { turnId: '26503c65-2dad-486e-b957-ffba2c73ee59' } } });
  });

  it('counts Claude background tasks that are still running', () => {
    const result = readHookPayload('claude', payload('claude-stop-with-background-task'));
    expect(result).toMatchObject({ kind: 'event', event: { runningBackgroundTasks: 1 } });
    const done = JSON.stringify({ hook_event_name: 'Stop', background_tasks: [{ id: 'a', status: 'completed' }, 'junk'] });
    expect(readHookPayload('claude', done)).toMatchObject({ event: { runningBackgroundTasks: 0 } });
  });

  it('reads real Gemini CLI 0.61.0 AfterAgent payloads (prompt as the turn hint)', () => {
    expect(readHookPayload('gemini', payload('gemini-after-agent-first'))).toMatchObject({
      kind: 'event',
      event: { agent: 'gemini', eventName: 'AfterAgent', isTurnEnd: true, stopHookActive: false, hint: { prompt: 'Please do the task.' } },
    });
    // After a block answered with tool calls, Gemini resets stop_hook_active to false.
    expect(readHookPayload('gemini', payload('gemini-after-agent-after-deny-with-tool-calls'))).toMatchObject({
      event: { stopHookActive: false, hint: { prompt: 'Please do the task.' } },
    });
    expect(readHookPayload('gemini', payload('gemini-after-agent-after-deny-text-only'))).toMatchObject({
      event: { stopHookActive: true },
    });
  });

  it('reads real Codex CLI 0.169.0 Stop payloads (turn_id as the turn hint)', () => {
    expect(readHookPayload('codex', JSON.stringify(codexStopPayloads()[0]))).toMatchObject({
      kind: 'event',
      event: {
        agent: 'codex',
        isTurnEnd: true,
        sessionId: '01a20107-4527-7350-b64a-84c60742cd58',
        stopHookActive: false,
        hint: { turnId: '01a20107-455b-73c3-a72e-db02ca7de868', lastAssistantMessage: 'Fixed calc.add and added NOTES.md.' },
      },
    });
    expect(readHookPayload('codex', JSON.stringify(codexStopPayloads()[1]))).toMatchObject({ event: { stopHookActive: true } });
  });

  it('marks other events as not a turn end', () => {
    expect(readHookPayload('gemini', payload('gemini-before-agent'))).toMatchObject({ event: { isTurnEnd: false, eventName: 'BeforeAgent' } });
    expect(readHookPayload('claude', '{"hook_event_name":"SubagentStop"}')).toMatchObject({ event: { isTurnEnd: false } });
    expect(readHookPayload('codex', '{"hook_event_name":"PostToolUse"}')).toMatchObject({ event: { isTurnEnd: false } });
    expect(readHookPayload('gemini', '{"hook_event_name":"Stop"}')).toMatchObject({ event: { isTurnEnd: false } });
  });

  it('treats null and empty optional fields as absent', () => {
    const result = readHookPayload('codex', '{"hook_event_name":"Stop","transcript_path":null,"turn_id":"","session_id":"s"}');
    expect(result).toEqual({
      kind: 'event',
      event: { agent: 'codex', eventName: 'Stop', isTurnEnd: true, sessionId: 's', stopHookActive: false, hint: {}, runningBackgroundTasks: 0 },
    });
  });

  it('keeps an empty final text but drops an empty turn id (Claude and Codex)', () => {
    expect(readHookPayload('claude', '{"prompt_id":"","last_assistant_message":""}')).toMatchObject({ event: { hint: { lastAssistantMessage: '' } } });
    expect(readHookPayload('codex', '{"turn_id":"t","last_assistant_message":""}')).toMatchObject({
      event: { hint: { turnId: 't', lastAssistantMessage: '' } },
    });
    expect(readHookPayload('gemini', '{"prompt":""}')).toMatchObject({ event: { hint: { prompt: '' } } });
  });

  it('ignores unknown keys and the other agents\' hint fields', () => {
    const text = JSON.stringify({ hook_event_name: 'Stop', session_id: 's', model: 'm', prompt: 'p', turn_id: 't', prompt_id: 'q' });
    expect(readHookPayload('claude', text)).toMatchObject({ event: { sessionId: 's', hint: { turnId: 'q' } } });
    expect(readHookPayload('codex', text)).toMatchObject({ event: { sessionId: 's', hint: { turnId: 't' } } });
    expect(readHookPayload('gemini', text)).toMatchObject({ event: { sessionId: 's', hint: { prompt: 'p' } } });
  });

  it.each([
    ['claude', '{"prompt_id":7}', 'Claude Stop payload: prompt_id'],
    ['claude', '{"background_tasks":{}}', 'Claude Stop payload: background_tasks'],
    ['codex', '{"turn_id":7}', 'Codex Stop payload: turn_id'],
    ['codex', '{"last_assistant_message":false}', 'Codex Stop payload: last_assistant_message'],
    ['gemini', '{"prompt":["a"]}', 'Gemini AfterAgent payload: prompt'],
    ['gemini', '{"cwd":1}', 'Gemini AfterAgent payload: cwd'],
    ['codex', '{"transcript_path":{}}', 'Codex Stop payload: transcript_path'],
    ['pi', '{"prompt":["a"]}', 'Pi turn_end payload: prompt'],
    ['pi', '{"last_assistant_message":7}', 'Pi turn_end payload: last_assistant_message'],
  ] as const)('%s rejects %s, naming the payload and the field', (agent, text, prefix) => {
    const result = readHookPayload(agent, text);
    expect(result.kind).toBe('invalid');
    if (result.kind === 'invalid') expect(result.detail.startsWith(prefix)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['whitespace', '  \n'],
    ['not JSON', 'hello'],
    ['truncated JSON', '{"session_id":"a"'],
    ['a JSON array', '[{"hook_event_name":"Stop"}]'],
    ['a JSON string', '"Stop"'],
    ['null', 'null'],
    ['wrong field type', '{"hook_event_name":"Stop","stop_hook_active":"yes"}'],
    // Both spellings: Copilot CLI's agentStop names the session `sessionId`, the others `session_id`.
    ['wrong session type', '{"hook_event_name":"Stop","session_id":42,"sessionId":42}'],
  ])('rejects %s with a diagnostic', (_label, text) => {
    for (const agent of AGENT_IDS) {
      const result = readHookPayload(agent, text);
      expect(result.kind).toBe('invalid');
      if (result.kind === 'invalid') expect(result.detail.length).toBeGreaterThan(0);
    }
  });
});
