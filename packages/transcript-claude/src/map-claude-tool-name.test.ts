import { describe, expect, it } from 'vitest';
import { mapClaudeToolName } from './map-claude-tool-name.ts';

describe('mapClaudeToolName', () => {
  it.each([
    ['Read', 'read'],
    ['Edit', 'edit'],
    ['MultiEdit', 'edit'],
    ['NotebookEdit', 'edit'],
    ['Write', 'write'],
    ['Bash', 'shell'],
    ['Grep', 'search'],
    ['Glob', 'search'],
    ['LS', 'search'],
    ['Task', 'other'],
    ['Agent', 'other'],
    ['WebFetch', 'other'],
    ['WebSearch', 'other'],
    ['TodoWrite', 'other'],
    ['BashOutput', 'other'],
    ['KillShell', 'other'],
    ['mcp__github__create_issue', 'other'],
    ['mcp__fs__Read', 'other'],
    ['bash', 'other'],
    ['', 'other'],
  ] as const)('%s → %s', (name, kind) => {
    expect(mapClaudeToolName(name)).toBe(kind);
  });
});
