import { TOOL_KINDS } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { mapCodexToolName } from './map-codex-tool-name.ts';

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
