import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_KINDS, type ToolKind } from '@agent-checkpoint/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapGeminiToolName } from './map-gemini-tool-name.ts';

const fixtures = join(import.meta.dirname, '../../../fixtures/gemini');

/** Every `toolCalls[].name` recorded in the Gemini fixtures (JSON sessions and JSONL records), read independently of the reader. */
function recordedToolNames(): Set<string> {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    const calls = record['toolCalls'];
    if (Array.isArray(calls)) for (const call of calls) if (typeof call?.name === 'string') names.add(call.name);
    Object.values(record).forEach(visit);
  };
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  for (const file of readdirSync(fixtures, { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.json')) visit(parse(readFileSync(join(fixtures, file), 'utf8')));
    else if (file.endsWith('.jsonl')) readFileSync(join(fixtures, file), 'utf8').split('\n').forEach((line) => visit(parse(line)));
  }
  return names;
}

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
    ['web_fetch', 'web'],
    ['google_web_search', 'web'],
    ['write_todos', 'plan'],
    ['enter_plan_mode', 'plan'],
    ['exit_plan_mode', 'plan'],
    ['ask_user', 'plan'],
    // Writes the user's global GEMINI.md: a file, so not an inert kind.
    ['save_memory', 'other'],
    ['activate_skill', 'other'],
    ['codebase_investigator', 'other'],
    ['Google_Web_Search', 'other'],
    ['github__create_issue', 'other'],
  ] as const)('%s → %s', (name, kind) => {
    expect(mapGeminiToolName(name)).toBe(kind);
  });

  it('does not map UI display names (they are labels, not tool names)', () => {
    for (const displayName of ['Shell', 'ReadFile', 'WriteFile', 'Edit', 'ReadManyFiles', 'FindFiles', 'SearchText', 'WebFetch', 'GoogleSearch', 'WriteTodos']) {
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

  it('gives every tool name recorded in the real sessions its decided kind', () => {
    // A new fixture with a tool not listed here fails: decide its kind (and core's semantics) first.
    const decided: Readonly<Record<string, ToolKind>> = {
      run_shell_command: 'shell', read_file: 'read', write_file: 'write', replace: 'edit', glob: 'search',
      list_directory: 'search', google_web_search: 'web',
    };
    const recorded = [...recordedToolNames()].sort();
    expect(recorded).toContain('google_web_search');
    expect(recorded.map((name) => [name, mapGeminiToolName(name)])).toEqual(recorded.map((name) => [name, decided[name] ?? 'undecided']));
  });
});
