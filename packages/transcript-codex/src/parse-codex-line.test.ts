import { describe, expect, it } from 'vitest';
import { isCodexRolloutLine, parseCodexLine, pathFromUri } from './parse-codex-line.ts';

const T = '2026-11-22T02:13:03.813Z';
const line = (type: string, payload: object) => ({ timestamp: T, type, payload });

describe('isCodexRolloutLine', () => {
  it('accepts wrapped rollout lines and bare response items of the earliest rollouts', () => {
    expect(isCodexRolloutLine(line('event_msg', { type: 'task_started' }))).toBe(true);
    expect(isCodexRolloutLine({ type: 'function_call', name: 'shell', call_id: 'c', arguments: '{}' })).toBe(true);
  });

  it('rejects other agents and junk', () => {
    expect(isCodexRolloutLine({ type: 'user', message: { role: 'user', content: 'x' } })).toBe(false);
    expect(isCodexRolloutLine({ type: 'message', message: 'gemini-ish' })).toBe(false);
    expect(isCodexRolloutLine({ type: 'event_msg' })).toBe(false);
    expect(isCodexRolloutLine(null)).toBe(false);
    expect(isCodexRolloutLine([1])).toBe(false);
  });
});

describe('parseCodexLine', () => {
  it('reads turn boundaries with their ids and times', () => {
    expect(parseCodexLine(line('event_msg', { type: 'task_started', turn_id: 't1', started_at: 1795313583, model_context_window: 258400 }), 5)).toEqual([
      { type: 'turn-start', offset: 5, timestamp: T, turnId: 't1', startedAt: '2026-11-22T02:13:03.000Z', contextWindow: 258400 },
    ]);
    expect(parseCodexLine(line('event_msg', { type: 'turn_aborted', turn_id: 't1', reason: 'interrupted' }), 0)).toMatchObject([{ type: 'turn-end', how: 'aborted', turnId: 't1' }]);
    expect(parseCodexLine(line('event_msg', { type: 'task_complete', last_agent_message: 'done' }), 0)).toMatchObject([{ type: 'turn-end', how: 'complete', lastAgentMessage: 'done' }]);
  });

  it('reads user messages with provenance and hook prompts from both forms', () => {
    const fromResponse = line('response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'hello' }],
      internal_chat_message_metadata_passthrough: { turn_id: 't1', content_item_metadata: [{ provenance: { type: 'user' } }] },
    });
    expect(parseCodexLine(fromResponse, 0)).toMatchObject([{ type: 'user-text', source: 'response', turnId: 't1', text: 'hello', provenance: ['user'] }]);
    const hookResponse = line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<hook_prompt hook_run_id="stop:0:x">a &amp; b</hook_prompt>' }] });
    expect(parseCodexLine(hookResponse, 0)).toMatchObject([{ type: 'hook-prompt', source: 'response', texts: ['a & b'] }]);
    const hookItem = line('event_msg', { type: 'item_completed', turn_id: 't1', item: { type: 'HookPrompt', id: 'h', fragments: [{ text: 'a & b', hookRunId: 'stop:0:x' }] } });
    expect(parseCodexLine(hookItem, 0)).toMatchObject([{ type: 'hook-prompt', source: 'item', turnId: 't1', texts: ['a & b'] }]);
    expect(parseCodexLine(line('event_msg', { type: 'user_message', message: 'old prompt', kind: 'plain' }), 0)).toMatchObject([{ type: 'user-text', source: 'event', provenance: [] }]);
    expect(parseCodexLine(line('event_msg', { type: 'user_message', message: '<user_instructions>x</user_instructions>', kind: 'user_instructions' }), 0)).toMatchObject([{ provenance: ['user_instructions'] }]);
    expect(parseCodexLine(line('response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'x' }] }), 0)).toEqual([]);
  });

  it('reads the call forms', () => {
    expect(parseCodexLine(line('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","pytest -q"]}', call_id: 'c1' }), 0)).toMatchObject([
      { type: 'call', callId: 'c1', rawName: 'shell', command: 'pytest -q', input: { command: ['bash', '-lc', 'pytest -q'] } },
    ]);
    expect(parseCodexLine(line('response_item', { type: 'function_call', name: 'shell_command', arguments: '{"command":"npm test"}', call_id: 'c2' }), 0)).toMatchObject([{ command: 'npm test' }]);
    expect(parseCodexLine(line('response_item', { type: 'function_call', name: 'apply_patch', arguments: '{"input":"*** Begin Patch\\n*** Add File: a\\n+x\\n*** End Patch"}', call_id: 'c3' }), 0)).toMatchObject([
      { rawName: 'apply_patch', patchText: '*** Begin Patch\n*** Add File: a\n+x\n*** End Patch' },
    ]);
    expect(parseCodexLine(line('response_item', { type: 'function_call', name: 'write_stdin', arguments: '{"session_id":42,"chars":""}', call_id: 'c4' }), 0)).toMatchObject([{ stdinSessionId: '42' }]);
    expect(parseCodexLine(line('response_item', { type: 'function_call', name: 'weird', arguments: 'not json', call_id: 'c5' }), 0)).toMatchObject([{ input: { arguments: 'not json' } }]);
    expect(parseCodexLine(line('response_item', { type: 'local_shell_call', id: 'ls1', status: 'completed', action: { type: 'exec', command: ['ls', '-la'] } }), 0)).toMatchObject([
      { callId: 'ls1', rawName: 'local_shell_call', command: 'ls -la' },
    ]);
  });

  it('reads structured results (0.169 items and older events)', () => {
    expect(
      parseCodexLine(
        line('event_msg', {
          type: 'item_completed',
          turn_id: 't',
          item: { type: 'CommandExecution', id: 'c', process_id: 77, command: ['/bin/bash', '-lc', 'make'], status: 'failed', exit_code: 2, aggregated_output: 'err', source: 'agent' },
        }),
        0,
      ),
    ).toMatchObject([{ type: 'command-result', rawName: 'CommandExecution', callId: 'c', command: 'make', exitCode: 2, status: 'failed', output: 'err', processId: '77', origin: 'agent' }]);
    expect(
      parseCodexLine(line('event_msg', { type: 'exec_command_end', call_id: 'c', command: ['bash', '-lc', 'ls'], exit_code: 0, aggregated_output: '', stdout: 'out', stderr: 'err' }), 0),
    ).toMatchObject([{ rawName: 'exec_command_end', command: 'ls', exitCode: 0, output: 'out\nerr' }]);
    expect(
      parseCodexLine(
        line('event_msg', {
          type: 'item_completed',
          item: { type: 'FileChange', id: 'p', changes: { '/r/a.py': { type: 'update', move_path: '/r/b.py' }, '/r/c.py': { type: 'delete' } }, status: 'completed' },
        }),
        0,
      ),
    ).toMatchObject([{ type: 'patch-result', paths: ['/r/a.py', '/r/b.py', '/r/c.py'], status: 'completed' }]);
    expect(parseCodexLine(line('event_msg', { type: 'patch_apply_end', call_id: 'p', success: false, stdout: '', stderr: 'bad' }), 0)).toMatchObject([
      { rawName: 'patch_apply_end', success: false, output: 'bad', paths: [] },
    ]);
  });

  it('reads tool items that are call and result at once', () => {
    expect(
      parseCodexLine(line('event_msg', { type: 'item_completed', item: { type: 'McpToolCall', id: 'm', server: 'gh', tool: 'create_issue', arguments: { title: 'x' }, status: 'failed', error: { message: 'no' } } }), 0),
    ).toMatchObject([{ type: 'item-tool', rawName: 'mcp__gh__create_issue', outcome: 'error', input: { title: 'x' } }]);
    expect(parseCodexLine(line('event_msg', { type: 'mcp_tool_call_end', call_id: 'm2', invocation: { server: 's', tool: 't', arguments: {} }, result: { Ok: { content: [], isError: false } } }), 0)).toMatchObject([
      { rawName: 'mcp__s__t', outcome: 'success' },
    ]);
    expect(parseCodexLine(line('event_msg', { type: 'item_completed', item: { type: 'ImageView', id: 'i', path: 'file:///r/shot%20one.png' } }), 0)).toMatchObject([
      { rawName: 'ImageView', path: '/r/shot one.png', outcome: 'success' },
    ]);
    expect(parseCodexLine(line('response_item', { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q' } }), 9)).toMatchObject([
      { type: 'item-tool', callId: 'web_search_call@9', rawName: 'web_search', outcome: 'success' },
    ]);
  });

  it('reads usage from token_count and token_usage_record', () => {
    expect(
      parseCodexLine(line('event_msg', { type: 'token_count', info: { last_token_usage: { input_tokens: 12, output_tokens: 3 }, model_context_window: 100 } }), 0),
    ).toMatchObject([{ type: 'usage', source: 'token_count', contextTokens: 12, outputTokens: 3, contextWindow: 100 }]);
    expect(parseCodexLine(line('token_usage_record', { turn_id: 't', usage: { input_tokens: 7, output_tokens: 1 } }), 0)).toMatchObject([
      { type: 'usage', source: 'token_usage_record', turnId: 't', contextTokens: 7 },
    ]);
    expect(parseCodexLine(line('event_msg', { type: 'token_count', info: null, rate_limits: {} }), 0)).toEqual([]);
  });

  it('reads bare response items of the earliest rollouts', () => {
    expect(parseCodexLine({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c' }, 0)).toMatchObject([{ type: 'call', command: 'ls' }]);
  });
});

describe('pathFromUri', () => {
  it('turns file URIs into paths and leaves paths alone', () => {
    expect(pathFromUri('file:///WORK/repo')).toBe('/WORK/repo');
    expect(pathFromUri('/abs/x')).toBe('/abs/x');
    expect(pathFromUri(undefined)).toBeUndefined();
  });
});
