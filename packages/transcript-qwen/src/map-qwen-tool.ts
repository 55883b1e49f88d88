import type { ToolKind } from '@agent-checkpoint/core';
import { match, P } from 'ts-pattern';

/**
 * Qwen Code 0.24.4's built-in tools by kind (its `ToolNames`). Exact, case-sensitive names; the
 * display names are presentation text. `exec` runs a code cell and `monitor` a background command:
 * both are `other`, which core treats conservatively, like `save_memory` (writes the user's global
 * QWEN.md), `agent` (a subagent, whose own calls are read from its file) and MCP tools.
 */
export function qwenToolKind(name: string): ToolKind {
  return match(name)
    .returnType<ToolKind>()
    .with('run_shell_command', () => 'shell')
    .with('read_file', () => 'read')
    .with('write_file', () => 'write')
    .with('edit', 'notebook_edit', () => 'edit')
    .with('glob', 'grep_search', 'list_directory', 'tool_search', () => 'search')
    .with('web_fetch', 'web_search', () => 'web')
    .with('todo_write', 'enter_plan_mode', 'exit_plan_mode', 'ask_user_question', () => 'plan')
    .with(P.string, () => 'other')
    .exhaustive();
}

/** The file paths a call names: `file_path` of the file tools (`notebook_path` of `notebook_edit`); none for the others. */
export function qwenToolPaths(kind: ToolKind, args: Readonly<Record<string, unknown>>): string[] {
  const path = typeof args['file_path'] === 'string' ? args['file_path'] : typeof args['notebook_path'] === 'string' ? args['notebook_path'] : undefined;
  return match(kind)
    .with('read', 'write', 'edit', () => (path === undefined ? [] : [path]))
    .with('shell', 'patch', 'search', 'web', 'plan', 'other', () => [])
    .exhaustive();
}
