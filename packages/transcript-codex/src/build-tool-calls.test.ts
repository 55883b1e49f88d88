import type { ShellToolCall, TurnTimeline } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexTranscriptReader } from './index.ts';
import { RolloutTestFiles } from './rollout-test-files.ts';

const reader = createCodexTranscriptReader();
const files = new RolloutTestFiles();
afterEach(() => files.cleanup());

const TURN = '01a20300-0000-7000-8000-000000000001';
const meta = { internal_chat_message_metadata_passthrough: { turn_id: TURN } };
const ev = (payload: object) => ({ timestamp: '2026-11-22T04:00:00.000Z', type: 'event_msg', payload: { turn_id: TURN, ...payload } });
const ri = (payload: object) => ({ timestamp: '2026-11-22T04:00:00.000Z', type: 'response_item', payload: { ...payload, ...meta } });
const start = [ev({ type: 'task_started' }), ev({ type: 'item_completed', item: { type: 'UserMessage', id: 'u', content: [{ type: 'text', text: 'go' }] } })];
const exec = (callId: string, cmd: string) => ri({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: callId });
const output = (callId: string, text: string) => ri({ type: 'function_call_output', call_id: callId, output: text });

async function readLines(lines: object[]): Promise<TurnTimeline> {
  return reader.readTurn({ transcriptPath: files.writeLines([...start, ...lines]), checkpointPrefix: '[checkpoint]' });
}

describe('call merging', () => {
  it('credits the exit code reported by write_stdin polls to the command that started the process', async () => {
    const timeline = await readLines([
      exec('c_build', 'npm run build'),
      output('c_build', 'Chunk ID: a\nWall time: 10.0 seconds\nProcess running with session ID 42\nOriginal token count: 2\nOutput:\nBuilding...\n'),
      ri({ type: 'function_call', name: 'write_stdin', arguments: '{"session_id":42,"chars":""}', call_id: 'c_poll1' }),
      output('c_poll1', 'Chunk ID: b\nWall time: 10.0 seconds\nProcess running with session ID 42\nOriginal token count: 2\nOutput:\nstill building\n'),
      ri({ type: 'function_call', name: 'write_stdin', arguments: '{"session_id":42,"chars":""}', call_id: 'c_poll2' }),
      output('c_poll2', 'Chunk ID: c\nWall time: 3.0 seconds\nProcess exited with code 1\nOriginal token count: 2\nOutput:\nerror TS2304: Cannot find name\n'),
    ]);
    const [build, poll1, poll2] = timeline.calls;
    expect(build).toMatchObject({ kind: 'shell', rawName: 'exec_command', command: 'npm run build', outcome: 'error', exitCode: 1 });
    expect(build?.output?.head).toBe('Building...\nstill building\nerror TS2304: Cannot find name\n');
    expect(poll1).toMatchObject({ kind: 'other', rawName: 'write_stdin', outcome: 'success' });
    expect(poll2).toMatchObject({ kind: 'other', rawName: 'write_stdin', outcome: 'success' });
  });

  it('leaves a command still running at the end of the turn pending', async () => {
    const timeline = await readLines([exec('c_srv', 'npm run dev'), output('c_srv', 'Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 7\nOutput:\nready\n')]);
    const server = timeline.calls[0] as ShellToolCall;
    expect(server.outcome).toBe('pending');
    expect(server.exitCode).toBeUndefined();
  });

  it('ignores commands the user ran themselves (!cmd)', async () => {
    const timeline = await readLines([
      ev({ type: 'item_completed', item: { type: 'CommandExecution', id: 'user-1', command: ['bash', '-lc', 'ls'], source: 'user_shell', status: 'completed', exit_code: 0 } }),
    ]);
    expect(timeline.calls).toEqual([]);
  });

  it('reports declined commands and failed tools as errors', async () => {
    const timeline = await readLines([
      exec('c_rm', 'rm -rf build'),
      ev({ type: 'item_completed', item: { type: 'CommandExecution', id: 'c_rm', command: ['bash', '-lc', 'rm -rf build'], status: 'declined' } }),
      ri({ type: 'custom_tool_call', name: 'apply_patch', call_id: 'c_patch', input: '*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n+y\n*** End Patch\n' }),
      ri({ type: 'custom_tool_call_output', call_id: 'c_patch', output: 'apply_patch verification failed: Failed to find expected lines in a.ts' }),
    ]);
    expect(timeline.calls.map((call) => [call.id, call.outcome])).toEqual([
      ['c_rm', 'error'],
      ['c_patch', 'error'],
    ]);
    expect(timeline.calls[1]?.paths).toEqual(['a.ts']);
  });

  it('keeps calls without any result pending, and orders calls by when they were made', async () => {
    const timeline = await readLines([
      ri({ type: 'function_call', name: 'update_plan', arguments: '{"plan":[]}', call_id: 'c_plan' }),
      exec('c_a', 'echo a'),
      exec('c_b', 'echo b'),
      ev({ type: 'item_completed', item: { type: 'CommandExecution', id: 'c_b', command: ['bash', '-lc', 'echo b'], status: 'completed', exit_code: 0 } }),
      ev({ type: 'item_completed', item: { type: 'CommandExecution', id: 'c_a', command: ['bash', '-lc', 'echo a'], status: 'completed', exit_code: 0 } }),
    ]);
    expect(timeline.calls.map((call) => [call.id, call.kind, call.outcome])).toEqual([
      ['c_plan', 'plan', 'pending'],
      ['c_a', 'shell', 'success'],
      ['c_b', 'shell', 'success'],
    ]);
  });

  it('keeps a result whose call line is outside the window as an unknown call', async () => {
    const timeline = await readLines([output('c_lost', 'Chunk ID: a\nWall time: 1 seconds\nProcess exited with code 2\nOutput:\nboom\n')]);
    expect(timeline.calls).toEqual([expect.objectContaining({ id: 'c_lost', kind: 'other', rawName: 'unknown', outcome: 'error' })]);
  });

  it('reads MCP, web search and view_image items', async () => {
    const timeline = await readLines([
      ev({ type: 'item_completed', item: { type: 'McpToolCall', id: 'm1', server: 'gh', tool: 'get_issue', arguments: { n: 1 }, status: 'completed', result: { content: [] } } }),
      ev({ type: 'item_completed', item: { type: 'WebSearch', id: 'w1', query: 'vitest bench', action: { type: 'search' } } }),
      ri({ type: 'function_call', name: 'view_image', arguments: '{"path":"/r/a.png"}', call_id: 'v1' }),
      ev({ type: 'item_completed', item: { type: 'ImageView', id: 'v1', path: 'file:///r/a.png' } }),
    ]);
    expect(timeline.calls.map((call) => [call.id, call.kind, call.rawName, call.outcome, call.paths])).toEqual([
      ['m1', 'other', 'mcp__gh__get_issue', 'success', []],
      ['w1', 'web', 'web_search', 'success', []],
      ['v1', 'read', 'view_image', 'success', ['/r/a.png']],
    ]);
  });
});

describe('the task list an update_plan call sets', () => {
  it('is normalised onto the call: text from `step`', async () => {
    const plan = [
      { step: 'Review the docs', status: 'completed' },
      { step: 'Write the commands', status: 'in_progress' },
      { step: 'Test on Windows', status: 'pending' },
    ];
    const timeline = await readLines([ri({ type: 'function_call', name: 'update_plan', arguments: JSON.stringify({ explanation: 'x', plan }), call_id: 'c_plan' }), output('c_plan', 'Plan updated')]);
    expect(timeline.calls[0]).toMatchObject({ kind: 'plan', rawName: 'update_plan' });
    expect(timeline.calls[0]?.taskList).toEqual([
      { text: 'Review the docs', status: 'completed' },
      { text: 'Write the commands', status: 'in_progress' },
      { text: 'Test on Windows', status: 'pending' },
    ]);
  });
});
