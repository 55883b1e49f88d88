import { describe, expect, it } from 'vitest';
import { buildGeminiToolCall } from './build-gemini-tool-call.ts';
import type { GeminiToolCallContext } from './build-gemini-tool-call.ts';
import { fixtureRecords } from './gemini-test-support.ts';

const context: GeminiToolCallContext = { messageId: 'm1', messageTimestamp: '2026-01-01T00:00:00.000Z', index: 0, responsesById: new Map() };

/** A `toolCalls[]` entry shaped like the real 0.61 records. */
function entry(overrides: Record<string, unknown>, output?: Record<string, unknown>): Record<string, unknown> {
  const id = (overrides['id'] as string | undefined) ?? 'run_shell_command__run_shell_command_1_0';
  const name = (overrides['name'] as string | undefined) ?? 'run_shell_command';
  return {
    id,
    name,
    args: { command: 'echo hi' },
    ...(output ? { result: [{ functionResponse: { id, name, response: output } }] } : {}),
    status: 'success',
    timestamp: '2026-01-01T00:00:01.000Z',
    displayName: 'Shell',
    ...overrides,
  };
}

/** Every toolCalls entry of a real recording, by call id (last copy of each message). */
function realCalls(): Map<string, Record<string, unknown>> {
  const calls = new Map<string, Record<string, unknown>>();
  for (const record of fixtureRecords('session-headless-deny-tools.jsonl')) {
    if (!Array.isArray(record['toolCalls'])) continue;
    for (const call of record['toolCalls'] as Record<string, unknown>[]) calls.set(call['id'] as string, call);
  }
  return calls;
}

describe('buildGeminiToolCall on real 0.61 entries', () => {
  const calls = realCalls();
  const build = (id: string) => buildGeminiToolCall(calls.get(id), context);

  it('a failed shell command (status "success", Exit Code: 1) is an error with exit code 1', () => {
    const call = build('run_shell_command__run_shell_command_1795313831678_0');
    expect(call).toMatchObject({ kind: 'shell', rawName: 'run_shell_command', command: 'echo about-to-fail; exit 1', exitCode: 1, outcome: 'error', paths: [] });
    expect(call?.output?.head).toBe('Output: about-to-fail\nExit Code: 1\nProcess Group PGID: 30915');
    expect(call?.timestamp).toBe('2026-11-22T02:17:11.822Z');
  });

  it('a successful shell command (no Exit Code line) has exit code 0', () => {
    expect(build('run_shell_command__run_shell_command_1795313831840_0')).toMatchObject({ kind: 'shell', exitCode: 0, outcome: 'success' });
  });

  it('write_file and replace keep the path as the model wrote it', () => {
    expect(build('write_file__write_file_1795313831875_0')).toMatchObject({ kind: 'write', rawName: 'write_file', outcome: 'success', paths: ['notes.txt'] });
    expect(build('replace__replace_1795313831950_0')).toMatchObject({ kind: 'edit', rawName: 'replace', outcome: 'success', paths: ['notes.txt'] });
  });

  it('read_file of a missing file (status "error", response.error) is an error', () => {
    const call = build('read_file__read_file_1795313832007_1');
    expect(call).toMatchObject({ kind: 'read', outcome: 'error', paths: ['missing.txt'] });
    expect(call?.output?.head).toBe('File not found: <WORK>/missing.txt');
    expect(call).not.toHaveProperty('exitCode');
  });
});

describe('buildGeminiToolCall outcomes', () => {
  it('status "cancelled" is an error (the call did not complete)', () => {
    const call = buildGeminiToolCall(entry({ status: 'cancelled' }, { error: '[Operation Cancelled] Reason: User cancelled' }), context);
    expect(call?.outcome).toBe('error');
  });

  it('status "error" wins over a clean-looking output', () => {
    expect(buildGeminiToolCall(entry({ status: 'error' }, { output: 'Output: fine' }), context)?.outcome).toBe('error');
  });

  it('Signal and Error trailer lines make a shell call an error', () => {
    expect(buildGeminiToolCall(entry({}, { output: 'Output: x\nSignal: SIGKILL\nProcess Group PGID: 1' }), context)).toMatchObject({ outcome: 'error', exitCode: 0 });
    expect(buildGeminiToolCall(entry({}, { output: 'Output: (empty)\nError: spawn ENOENT' }), context)?.outcome).toBe('error');
  });

  it('a shell call with no result is pending, whatever its status', () => {
    expect(buildGeminiToolCall(entry({ status: 'executing' }), context)).toMatchObject({ outcome: 'pending' });
    const successWithoutResult = buildGeminiToolCall(entry({}), context);
    expect(successWithoutResult?.outcome).toBe('pending');
    expect(successWithoutResult).not.toHaveProperty('exitCode');
  });

  it('a non-shell call with no result is success when its status says so, else pending', () => {
    const read = { id: 'r1', name: 'read_file', args: { file_path: 'a.ts' } };
    expect(buildGeminiToolCall({ ...read, status: 'success' }, context)?.outcome).toBe('success');
    expect(buildGeminiToolCall({ ...read, status: 'scheduled' }, context)?.outcome).toBe('pending');
    expect(buildGeminiToolCall(read, context)?.outcome).toBe('pending');
  });

  it('pairs with a functionResponse recorded in a user message when the entry has no result', () => {
    const responsesById = new Map([['c9', { id: 'c9', name: 'run_shell_command', response: { output: 'Output: no\nExit Code: 2' } }]]);
    const call = buildGeminiToolCall({ id: 'c9', name: 'run_shell_command', args: { command: 'false' }, status: 'success' }, { ...context, responsesById });
    expect(call).toMatchObject({ outcome: 'error', exitCode: 2 });
  });

  it('picks its own response by id when a rewritten result holds every sibling of a parallel batch', () => {
    const parts = [
      { functionResponse: { id: 'a', name: 'run_shell_command', response: { output: 'Output: x\nExit Code: 1' } } },
      { functionResponse: { id: 'b', name: 'run_shell_command', response: { output: 'Output: y' } } },
    ];
    const a = buildGeminiToolCall({ id: 'a', name: 'run_shell_command', args: { command: 'x' }, result: parts, status: 'success' }, context);
    const b = buildGeminiToolCall({ id: 'b', name: 'run_shell_command', args: { command: 'y' }, result: parts, status: 'success' }, context);
    expect([a?.outcome, b?.outcome]).toEqual(['error', 'success']);
    expect(b?.output?.head).toBe('Output: y');
  });

  it('a masked shell output without an Exit Code line stays success with no exit code', () => {
    const call = buildGeminiToolCall(entry({}, { output: '[Tool Output Masked]\n<tool_output_masked_guidance \n>\nOutput: lots\n\n... [Full output available at /x.txt.]\n</tool_output_masked_guidance>' }), context);
    expect(call?.outcome).toBe('success');
    expect(call).not.toHaveProperty('exitCode');
  });

  it('falls back to resultDisplay for the output text', () => {
    const call = buildGeminiToolCall(
      { id: 'w', name: 'write_file', args: { file_path: 'a.txt' }, result: [{ functionResponse: { id: 'w', name: 'write_file', response: {} } }], status: 'success', resultDisplay: { fileDiff: '+a', filePath: '/abs/a.txt' } },
      context,
    );
    expect(call?.output?.head).toBe('+a');
  });
});

describe('buildGeminiToolCall identity and paths', () => {
  it('uses name, never displayName, and keeps rawName', () => {
    const call = buildGeminiToolCall({ id: 'x', name: 'read_file', displayName: 'WriteFile', args: { file_path: 'a' }, status: 'success' }, context);
    expect(call).toMatchObject({ kind: 'read', rawName: 'read_file' });
  });

  it('an entry without name falls back to displayName as rawName but is not classified by it', () => {
    const call = buildGeminiToolCall({ id: 'x', displayName: 'ReadFile', args: {}, status: 'success' }, context);
    expect(call).toMatchObject({ kind: 'other', rawName: 'ReadFile' });
  });

  it('an entry without id gets one from its message and position', () => {
    expect(buildGeminiToolCall({ name: 'glob', args: { pattern: '*.ts' } }, { ...context, index: 3 })?.id).toBe('m1#3');
  });

  it('skips entries that are not objects or have no name', () => {
    expect(buildGeminiToolCall('x', context)).toBeUndefined();
    expect(buildGeminiToolCall({ id: 'x' }, context)).toBeUndefined();
  });

  it('collects absolute_path and read_many_files paths/include, deduplicated', () => {
    expect(buildGeminiToolCall({ id: 'r', name: 'read_file', args: { absolute_path: '/p/a.ts' } }, context)?.paths).toEqual(['/p/a.ts']);
    expect(buildGeminiToolCall({ id: 'm', name: 'read_many_files', args: { paths: ['src/a.ts', 'src/**/*.md'], include: ['*.json', 'src/a.ts'] } }, context)?.paths).toEqual([
      'src/a.ts',
      'src/**/*.md',
      '*.json',
    ]);
  });

  it('uses resultDisplay.filePath only when the arguments name no path', () => {
    const display = { fileDiff: '', filePath: '/abs/notes.txt' };
    expect(buildGeminiToolCall({ id: 'w', name: 'write_file', args: {}, resultDisplay: display }, context)?.paths).toEqual(['/abs/notes.txt']);
    expect(buildGeminiToolCall({ id: 'w', name: 'write_file', args: { file_path: 'notes.txt' }, resultDisplay: display }, context)?.paths).toEqual(['notes.txt']);
  });

  it('search, web, plan and other kinds carry no paths; shell calls carry the command text', () => {
    expect(buildGeminiToolCall({ id: 'g', name: 'grep_search', args: { pattern: 'x', dir_path: 'src' } }, context)).toMatchObject({ kind: 'search', paths: [] });
    expect(buildGeminiToolCall({ id: 'w', name: 'web_fetch', args: { prompt: 'x' } }, context)).toMatchObject({ kind: 'web', paths: [] });
    // The plan file was written by an earlier write_file; approving it names it but changes nothing.
    expect(buildGeminiToolCall({ id: 'p', name: 'exit_plan_mode', args: { plan_path: 'plans/p.md' } }, context)).toMatchObject({ kind: 'plan', paths: [] });
    expect(buildGeminiToolCall({ id: 'm', name: 'save_memory', args: { fact: 'x' } }, context)).toMatchObject({ kind: 'other', paths: [] });
    expect(buildGeminiToolCall({ id: 's', name: 'run_shell_command', args: {} }, context)).toMatchObject({ kind: 'shell', command: '' });
  });
});

describe('the task list a write_todos call sets', () => {
  it('is normalised onto the call: text from `description`, cancelled kept', () => {
    const todos = [
      { description: 'Initialize the project', status: 'completed' },
      { description: 'Implement state management', status: 'in_progress' },
      { description: 'Drop the old API', status: 'cancelled' },
    ];
    const call = buildGeminiToolCall(entry({ id: 'write_todos_1', name: 'write_todos', args: { todos }, displayName: 'WriteTodos' }), context);
    expect(call).toMatchObject({ kind: 'plan' });
    expect(call?.taskList).toEqual([
      { text: 'Initialize the project', status: 'completed' },
      { text: 'Implement state management', status: 'in_progress' },
      { text: 'Drop the old API', status: 'cancelled' },
    ]);
  });
});
