import { describe, expect, it } from 'vitest';
import { buildClaudeToolCall, parseExitCodeLine } from './build-claude-tool-call.ts';

describe('parseExitCodeLine', () => {
  it.each<[string, number | undefined]>([
    ['Exit code 1\nhello', 1],
    ['Exit code 137', 137],
    ['Exit code 2\r\nmake: *** Error 2', 2],
    ['<persisted-output>\nOutput too large (61.2KB). Full output saved to: /x/tool-results/t.txt\n\nPreview (first 2KB):\nExit code 3\nboom\n...\n</persisted-output>', 3],
    ['<persisted-output>\nOutput too large (61.2KB). Full output saved to: /x/t.txt\n\nPreview (first 2KB):\nno code here\n</persisted-output>', undefined],
    ['hello\nExit code 1', undefined],
    ['Exit code one', undefined],
    ["Claude requested permissions to write to /x, but you haven't granted it yet.", undefined],
    ['<tool_use_error>File does not exist.</tool_use_error>', undefined],
  ])('%j → %s', (text, code) => {
    expect(parseExitCodeLine(text)).toBe(code);
  });
});

describe('buildClaudeToolCall', () => {
  const bash = { id: 't1', name: 'Bash', input: { command: 'npm test' } };

  it('pending without a result; no exit code', () => {
    expect(buildClaudeToolCall(bash, undefined, '2026-01-01T00:00:00Z')).toEqual({
      id: 't1', rawName: 'Bash', input: { command: 'npm test' }, outcome: 'pending', timestamp: '2026-01-01T00:00:00Z', kind: 'shell', paths: [], command: 'npm test',
    });
  });

  it('success with exit code 0; error with the recorded code', () => {
    expect(buildClaudeToolCall(bash, { toolUseId: 't1', isError: false, text: 'ok' }, undefined)).toMatchObject({ outcome: 'success', exitCode: 0 });
    expect(buildClaudeToolCall(bash, { toolUseId: 't1', isError: true, text: 'Exit code 4\nno' }, undefined)).toMatchObject({ outcome: 'error', exitCode: 4 });
    const denied = buildClaudeToolCall(bash, { toolUseId: 't1', isError: true, text: 'Permission to use Bash has been denied.' }, undefined);
    expect(denied).toMatchObject({ outcome: 'error' });
    expect('exitCode' in denied).toBe(false);
  });

  it('a background command is pending: its result only says it started', () => {
    const call = buildClaudeToolCall({ id: 't2', name: 'Bash', input: { command: 'npm run dev', run_in_background: true } }, { toolUseId: 't2', isError: false, text: 'Command running in background with ID: bash_1' }, undefined);
    expect(call).toMatchObject({ outcome: 'pending', kind: 'shell' });
    expect('exitCode' in call).toBe(false);
  });

  it('a non-string command becomes empty text, never a crash', () => {
    expect(buildClaudeToolCall({ id: 't3', name: 'Bash', input: { command: ['ls'] } }, undefined, undefined)).toMatchObject({ command: '' });
  });

  it('read/edit/write paths from file_path, notebook_path and path, deduplicated, as written', () => {
    expect(buildClaudeToolCall({ id: 'a', name: 'Read', input: { file_path: 'src/a.ts' } }, undefined, undefined).paths).toEqual(['src/a.ts']);
    expect(buildClaudeToolCall({ id: 'b', name: 'NotebookEdit', input: { notebook_path: '/r/n.ipynb' } }, undefined, undefined).paths).toEqual(['/r/n.ipynb']);
    expect(buildClaudeToolCall({ id: 'c', name: 'Edit', input: { file_path: 'a', path: 'a' } }, undefined, undefined).paths).toEqual(['a']);
    expect(buildClaudeToolCall({ id: 'd', name: 'Write', input: { file_path: '' } }, undefined, undefined).paths).toEqual([]);
  });

  it('search and other calls name no paths: a search root is not a touched file', () => {
    const grep = buildClaudeToolCall({ id: 'e', name: 'Grep', input: { pattern: 'x', path: 'src' } }, undefined, undefined);
    expect(grep.paths).toEqual([]);
    expect(grep.input['path']).toBe('src');
    expect(buildClaudeToolCall({ id: 'f', name: 'Glob', input: { pattern: '**/*.ts', path: 'src' } }, undefined, undefined).paths).toEqual([]);
    expect(buildClaudeToolCall({ id: 'g', name: 'mcp__fs__read', input: { path: 'a' } }, undefined, undefined).paths).toEqual([]);
  });

  it('output excerpt keeps head and tail of long outputs', () => {
    const text = `${'a'.repeat(10_000)}FAILED at the end`;
    const call = buildClaudeToolCall(bash, { toolUseId: 't1', isError: true, text: `Exit code 1\n${text}` }, undefined, { head: 100, tail: 50 });
    expect(call.output?.truncated).toBe(true);
    expect(call.output?.head.startsWith('Exit code 1')).toBe(true);
    expect(call.output?.tail.endsWith('FAILED at the end')).toBe(true);
    expect(call.output?.head.length).toBe(100);
  });
});

describe('the task list a TodoWrite call sets', () => {
  it('is normalised onto the call: text from `content`, the status as is, an unknown status pending, empty tasks skipped', () => {
    const todos = [
      { content: 'Fix the parser', status: 'completed', activeForm: 'Fixing the parser' },
      { content: 'Add the test', status: 'in_progress', activeForm: 'Adding the test' },
      { content: '  Update   the docs ', status: 'someday' },
      { content: '', status: 'pending' },
    ];
    const call = buildClaudeToolCall({ id: 'p1', name: 'TodoWrite', input: { todos } }, { toolUseId: 'p1', isError: false, text: 'ok' }, undefined);
    expect(call).toMatchObject({ kind: 'plan' });
    expect(call.taskList).toEqual([
      { text: 'Fix the parser', status: 'completed' },
      { text: 'Add the test', status: 'in_progress' },
      { text: 'Update the docs', status: 'pending' },
    ]);
    // Another planning call (one task at a time) sets no whole list.
    expect(buildClaudeToolCall({ id: 'p2', name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } }, undefined, undefined)).not.toHaveProperty('taskList');
  });
});
