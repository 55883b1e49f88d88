import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_KINDS, type ToolKind } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { canonicalCodexToolName, mapCodexToolName } from './map-codex-tool-name.ts';

const fixtures = join(import.meta.dirname, '../../../fixtures/codex');

/** Every `function_call` / `custom_tool_call` name recorded in the Codex fixture rollouts, read independently of the reader. */
function recordedToolNames(): Set<string> {
  const names = new Set<string>();
  const files = readdirSync(fixtures, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.jsonl'));
  for (const file of files) {
    for (const line of readFileSync(join(fixtures, file), 'utf8').split('\n')) {
      if (!line.includes('_call"')) continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      const payload = (record as { payload?: { type?: unknown; name?: unknown } }).payload;
      if ((payload?.type === 'function_call' || payload?.type === 'custom_tool_call') && typeof payload.name === 'string') names.add(payload.name);
    }
  }
  return names;
}

describe('mapCodexToolName', () => {
  it.each([
    ['exec_command', 'shell'],
    ['shell', 'shell'],
    ['shell_command', 'shell'],
    ['local_shell_call', 'shell'],
    ['container.exec', 'shell'],
    ['CommandExecution', 'shell'],
    ['exec_command_end', 'shell'],
    ['apply_patch', 'patch'],
    ['FileChange', 'patch'],
    ['patch_apply_end', 'patch'],
    ['view_image', 'read'],
    ['ImageView', 'read'],
    ['write_stdin', 'other'],
    ['web_search', 'web'],
    ['update_plan', 'plan'],
    ['request_user_input', 'plan'],
    ['tool_search', 'other'],
    ['mcp__github__create_issue', 'other'],
    ['', 'other'],
  ])('%s → %s', (name, kind) => {
    expect(mapCodexToolName(name)).toBe(kind);
    expect(TOOL_KINDS).toContain(kind);
  });

  it('gives every tool name recorded in the real rollouts its decided kind', () => {
    // A new fixture with a tool not listed here fails: decide its kind (and core's semantics) first.
    // MCP tools (`mcp__server__tool`) and names the corpus redacted are `other` by rule.
    const decided: Readonly<Record<string, ToolKind>> = {
      exec_command: 'shell', shell: 'shell', shell_command: 'shell', apply_patch: 'patch', write_stdin: 'other',
      view_image: 'read', update_plan: 'plan',
      // Code mode's cell container and the collaboration tools: their work is recorded as calls of
      // their own (nested items, subagent rollouts); the container itself stays conservative.
      exec: 'other', wait: 'other', spawn_agent: 'other', wait_agent: 'other', followup_task: 'other',
    };
    const decide = (name: string): ToolKind | 'undecided' =>
      decided[name] ?? (name.startsWith('mcp__') || name.startsWith('[REDACTED') ? 'other' : 'undecided');
    const recorded = [...recordedToolNames()].sort();
    expect(recorded).toEqual(expect.arrayContaining(['update_plan', 'view_image']));
    expect(recorded.map((name) => [name, mapCodexToolName(name)])).toEqual(recorded.map((name) => [name, decide(name)]));
  });
});

describe('canonicalCodexToolName', () => {
  it.each([
    ['functions.exec_command', 'exec_command'],
    ['  Exec_Command\t', 'exec_command'],
    ['FUNCTIONS.APPLY_PATCH', 'apply_patch'],
    ['functions.container.exec', 'container.exec'],
    ['mcp__GitHub__Create_Issue', 'mcp__GitHub__Create_Issue'],
    [' functions.mcp__srv__Tool ', 'mcp__srv__Tool'],
    ['CommandExecution', 'CommandExecution'],
  ])('%j → %j', (raw, canonical) => {
    expect(canonicalCodexToolName(raw)).toBe(canonical);
  });

  it('maps namespaced and cased names to their kind', () => {
    expect(mapCodexToolName('functions.shell')).toBe('shell');
    expect(mapCodexToolName(' View_Image ')).toBe('read');
    expect(mapCodexToolName('functions.update_plan')).toBe('plan');
    expect(mapCodexToolName('Web_Search')).toBe('web');
  });
});
