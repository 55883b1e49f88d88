import { describe, expect, it } from 'vitest';
import { formatApplyPatch, shellQuote, toClaudeCalls, toCodexCalls, toGeminiCalls } from './native-tool-calls.ts';
import { patch, read, shell, write } from './scenario.ts';

const multi = patch(
  { op: 'update', path: 'a.txt', oldText: 'one\ntwo\n', newText: 'uno\n' },
  { op: 'add', path: 'dir/b.txt', content: 'b1\nb2' },
  { op: 'delete', path: 'old file.txt' },
);

describe('native tool calls', () => {
  it('formats a Codex apply_patch envelope for several files', () => {
    expect(formatApplyPatch(multi.kind === 'patch' ? multi.changes : [])).toBe(
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n-two\n+uno\n*** Add File: dir/b.txt\n+b1\n+b2\n*** Delete File: old file.txt\n*** End Patch\n',
    );
  });

  it('gives Codex one apply_patch for a multi-file patch, and exec_command for shell and reads', () => {
    expect(toCodexCalls([multi, read('x y.txt'), shell('ls', { yieldTimeMs: 500 })]).map((c) => c.name)).toEqual(['apply_patch', 'exec_command', 'exec_command']);
    const [, cat, ls] = toCodexCalls([multi, read('x y.txt'), shell('ls', { yieldTimeMs: 500 })]);
    expect(cat?.type === 'function_call' && JSON.parse(cat.arguments)).toEqual({ cmd: "cat 'x y.txt'", yield_time_ms: 10_000 });
    expect(ls?.type === 'function_call' && JSON.parse(ls.arguments)).toEqual({ cmd: 'ls', yield_time_ms: 500 });
  });

  it('expands a patch into one call per file for Claude (absolute paths) and Gemini (relative)', () => {
    expect(toClaudeCalls([multi], '/r')).toEqual([
      { name: 'Edit', input: { file_path: '/r/a.txt', old_string: 'one\ntwo\n', new_string: 'uno\n' } },
      { name: 'Write', input: { file_path: '/r/dir/b.txt', content: 'b1\nb2' } },
      { name: 'Bash', input: { command: "rm -- 'old file.txt'" } },
    ]);
    expect(toGeminiCalls([multi, write('n.txt', 'n')]).map((c) => [c.name, c.input['file_path'] ?? c.input['command']])).toEqual([
      ['replace', 'a.txt'],
      ['write_file', 'dir/b.txt'],
      ['run_shell_command', "rm -- 'old file.txt'"],
      ['write_file', 'n.txt'],
    ]);
  });

  it('quotes shell words only when needed', () => {
    expect(shellQuote('src/a.ts')).toBe('src/a.ts');
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
  });
});
