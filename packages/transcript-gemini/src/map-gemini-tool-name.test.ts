import { TOOL_KINDS } from '@agent-checkpoint/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapGeminiToolName } from './map-gemini-tool-name.ts';

describe('mapGeminiToolName', () => {
  it.each([
    ['run_shell_command', 'shell'],
    ['read_file', 'read'],
    ['read_many_files', 'read'],
    ['write_file', 'write'],
    ['replace', 'edit'],
    ['edit', 'edit'],
    ['glob', 'search'],
    ['grep_search', 'search'],
    ['search_file_content', 'search'],
    ['list_directory', 'search'],
    ['web_fetch', 'other'],
    ['google_web_search', 'other'],
    ['save_memory', 'other'],
    ['write_todos', 'other'],
    ['github__create_issue', 'other'],
  ] as const)('%s → %s', (name, kind) => {
    expect(mapGeminiToolName(name)).toBe(kind);
  });

  it('does not map UI display names (they are labels, not tool names)', () => {
    for (const displayName of ['Shell', 'ReadFile', 'WriteFile', 'Edit', 'ReadManyFiles', 'FindFiles', 'SearchText']) {
      expect(mapGeminiToolName(displayName)).toBe('other');
    }
  });

  it('does not match inherited object keys', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(mapGeminiToolName(name)).toBe('other');
    }
  });

  it('always returns a known kind', () => {
    fc.assert(fc.property(fc.string(), (name) => TOOL_KINDS.includes(mapGeminiToolName(name))));
  });
});
