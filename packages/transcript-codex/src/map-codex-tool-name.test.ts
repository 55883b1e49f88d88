import { TOOL_KINDS } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { canonicalCodexToolName, mapCodexToolName } from './map-codex-tool-name.ts';

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
    ['web_search', 'other'],
    ['tool_search', 'other'],
    ['update_plan', 'other'],
    ['mcp__github__create_issue', 'other'],
    ['', 'other'],
  ])('%s → %s', (name, kind) => {
    expect(mapCodexToolName(name)).toBe(kind);
    expect(TOOL_KINDS).toContain(kind);
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
  });
});
