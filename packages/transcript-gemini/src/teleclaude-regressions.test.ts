// Regression tests for the original implementation's Gemini parsing bugs (reference teleclaude.md
// §7.2 items 2 and 3), on the real 0.61 recording. Each test states what the original produced, so
// it fails if this reader ever behaves like it again.
import { isFileMutation } from '@agent-checkpoint/core';
import type { ToolCall } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { PROMPT, fixture, fixtureRecords, read } from './gemini-test-support.ts';

/**
 * The original's view of a Gemini tool call: name = `displayName` first, then `name`, lowercased;
 * `had_error` never set (the `status` field was ignored).
 */
function originalView(entry: Record<string, unknown>): { name: string; hadError: boolean } {
  const name = (typeof entry['displayName'] === 'string' ? entry['displayName'] : typeof entry['name'] === 'string' ? entry['name'] : 'tool').toLowerCase();
  return { name, hadError: false };
}

const timeline = read(fixture('session-headless-deny-tools.jsonl'), { hint: { prompt: PROMPT } });
const rawEntries = new Map<string, Record<string, unknown>>();
for (const record of fixtureRecords('session-headless-deny-tools.jsonl')) {
  for (const entry of (record['toolCalls'] as Record<string, unknown>[] | undefined) ?? []) rawEntries.set(entry['id'] as string, entry);
}
const byId = (id: string): { call: ToolCall; original: ReturnType<typeof originalView> } => {
  const call = timeline.calls.find((c) => c.id === id);
  const entry = rawEntries.get(id);
  if (!call || !entry) throw new Error(`fixture call ${id} missing`);
  return { call, original: originalView(entry) };
};

describe('§7.2 item 2: Gemini errors were never detected (status ignored)', () => {
  it('a tool failure recorded as status:"error" is an error', () => {
    const { call, original } = byId('read_file__read_file_1795313832007_1');
    expect(original.hadError).toBe(false);
    expect(call.outcome).toBe('error');
  });

  it('a failed run_shell_command (status "success", Exit Code: 1) is an error with its exit code, not evidence', () => {
    const { call, original } = byId('run_shell_command__run_shell_command_1795313831678_0');
    expect(original.hadError).toBe(false);
    expect(call).toMatchObject({ kind: 'shell', outcome: 'error', exitCode: 1 });
  });
});

describe('§7.2 item 3: tool names came from displayName', () => {
  it('read_file (displayName "ReadFile") is a read', () => {
    const { call, original } = byId('read_file__read_file_1795313831998_0');
    expect(original.name).toBe('readfile');
    expect(original.name).not.toBe('read');
    expect(call).toMatchObject({ kind: 'read', rawName: 'read_file', paths: ['notes.txt'] });
  });

  it('write_file (displayName "WriteFile") is a write, and so a file mutation', () => {
    const { call, original } = byId('write_file__write_file_1795313831875_0');
    expect(original.name).toBe('writefile');
    expect(call).toMatchObject({ kind: 'write', rawName: 'write_file', paths: ['notes.txt'] });
    expect(isFileMutation(call)).toBe(true);
  });

  it('replace (displayName "Edit") and run_shell_command (displayName "Shell") keep their native names', () => {
    expect(byId('replace__replace_1795313831950_0').call).toMatchObject({ kind: 'edit', rawName: 'replace' });
    expect(byId('run_shell_command__run_shell_command_1795313831840_0').call).toMatchObject({ kind: 'shell', rawName: 'run_shell_command' });
  });

  it('every edited path of the turn has a read call of the same path in the timeline', () => {
    const readPaths = new Set(timeline.calls.filter((c) => c.kind === 'read').flatMap((c) => c.paths));
    const editedPaths = timeline.calls.filter((c) => c.kind === 'edit').flatMap((c) => c.paths);
    expect(editedPaths).toEqual(['notes.txt']);
    expect(editedPaths.every((p) => readPaths.has(p))).toBe(true);
  });
});
