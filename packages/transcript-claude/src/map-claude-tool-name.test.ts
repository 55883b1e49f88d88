import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolKind } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { mapClaudeToolName } from './map-claude-tool-name.ts';

const fixtures = join(import.meta.dirname, '../../../fixtures/claude');

/** Every `tool_use` name recorded in the Claude fixtures (real transcripts), read independently of the reader. */
function recordedToolNames(): Set<string> {
  const names = new Set<string>();
  const files = readdirSync(fixtures, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.jsonl'));
  for (const file of files) {
    for (const line of readFileSync(join(fixtures, file), 'utf8').split('\n')) {
      if (!line.includes('"tool_use"')) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      const content = (entry as { message?: { content?: unknown } }).message?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        if (block?.type === 'tool_use' && typeof block.name === 'string') names.add(block.name);
      }
    }
  }
  return names;
}

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
    ['WebFetch', 'web'],
    ['WebSearch', 'web'],
    ['TodoWrite', 'plan'],
    ['TodoRead', 'plan'],
    ['EnterPlanMode', 'plan'],
    ['ExitPlanMode', 'plan'],
    ['AskUserQuestion', 'plan'],
    ['Skill', 'other'],
    ['ToolSearch', 'plan'],
    ['PowerShell', 'shell'],
    ['TaskCreate', 'plan'],
    ['TaskGet', 'plan'],
    ['TaskList', 'plan'],
    ['TaskUpdate', 'plan'],
    ['CronCreate', 'plan'],
    ['ScheduleWakeup', 'plan'],
    ['ListAgents', 'plan'],
    ['LSP', 'search'],
    ['Artifact', 'web'],
    ['Workflow', 'other'],
    ['Monitor', 'other'],
    ['TaskOutput', 'other'],
    ['TaskStop', 'other'],
    ['SendMessage', 'other'],
    ['EnterWorktree', 'other'],
    ['ReportFindings', 'other'],
    ['powershell', 'other'],
    ['toString', 'other'],
    ['BashOutput', 'other'],
    ['KillShell', 'other'],
    ['mcp__github__create_issue', 'other'],
    ['mcp__fs__Read', 'other'],
    // MCP tools keep their server's semantics, whatever they are called.
    ['mcp__web__WebFetch', 'other'],
    ['mcp__todo__TodoWrite', 'other'],
    ['bash', 'other'],
    ['todowrite', 'other'],
    ['webfetch', 'other'],
    ['', 'other'],
  ] as const)('%s → %s', (name, kind) => {
    expect(mapClaudeToolName(name)).toBe(kind);
  });

  it.each([
    ['web_search', 'web'],
    ['web_fetch', 'web'],
    ['code_execution', 'web'],
    ['advisor', 'plan'],
    ['tool_search_tool_regex', 'plan'],
    ['some_future_server_tool', 'web'],
  ] as const)('server tool %s → %s (runs on the provider’s side, never locally)', (name, kind) => {
    expect(mapClaudeToolName(name, 'server')).toBe(kind);
  });

  it('a client tool that shares a server tool’s name keeps its client kind', () => {
    expect(mapClaudeToolName('advisor')).toBe('other');
    expect(mapClaudeToolName('Bash', 'server')).toBe('web');
  });

  it('gives every tool name recorded in the real transcripts its decided kind', () => {
    // A new fixture with a tool not listed here fails: decide its kind (and core's semantics) first.
    const decided: Readonly<Record<string, ToolKind>> = {
      Bash: 'shell', Read: 'read', Edit: 'edit', MultiEdit: 'edit', NotebookEdit: 'edit', Write: 'write', Grep: 'search',
      Glob: 'search', WebFetch: 'web', WebSearch: 'web', TodoWrite: 'plan', Skill: 'other', Task: 'other', Agent: 'other',
      mcp__docs__search: 'other', PowerShell: 'shell',
    };
    const recorded = [...recordedToolNames()].sort();
    expect(recorded).toEqual(expect.arrayContaining(['TodoWrite', 'WebFetch', 'WebSearch']));
    expect(recorded.map((name) => [name, mapClaudeToolName(name)])).toEqual(recorded.map((name) => [name, decided[name] ?? 'undecided']));
  });
});
