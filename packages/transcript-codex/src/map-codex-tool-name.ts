import type { ToolKind } from '@agent-checkpoint/core';

/** Built-in Codex tool names (any version), lower case: the names {@link canonicalCodexToolName} folds case for. */
const BUILTIN_TOOL_NAMES = new Set([
  'exec_command',
  'shell',
  'shell_command',
  'local_shell_call',
  'local_shell',
  'container.exec',
  'apply_patch',
  'view_image',
  'write_stdin',
  'web_search',
  'tool_search',
  'update_plan',
  'request_user_input',
]);
/** The Responses API namespace some models and versions put in front of function names. */
const FUNCTIONS_NAMESPACE = /^functions\./i;

/**
 * The tool name a model wrote, in the form the rest of the reader knows: surrounding whitespace
 * removed, the `functions.` namespace dropped (`functions.exec_command`), and the case of built-in
 * names folded (`Exec_Command`). Other names (MCP, dynamic tools) keep their case: it is theirs.
 */
export function canonicalCodexToolName(rawName: string): string {
  const bare = rawName.trim().replace(FUNCTIONS_NAMESPACE, '').trim();
  const lower = bare.toLowerCase();
  return BUILTIN_TOOL_NAMES.has(lower) ? lower : bare;
}

/**
 * Map a Codex tool name (or structured item / event type, used when only the result is in the read
 * window) to the unified {@link ToolKind}. Pure; unknown names are `other`.
 *
 * - `exec_command`, `shell`, `shell_command`, `local_shell_call`, `container.exec` (early name of
 *   `shell`), and the `CommandExecution` item / `exec_command_end` event → `shell`;
 * - `apply_patch` (freeform `custom_tool_call` or JSON `function_call`), the `FileChange` item and the
 *   `patch_apply_end` event → `patch`;
 * - `view_image` and the `ImageView` item / `view_image_tool_call` event → `read` (it reads a file);
 * - `write_stdin` → `other`: it sends keystrokes to a process started by an earlier `exec_command`, so
 *   its `chars` are not a command and must not be parsed as one. When it reports the process's exit
 *   code, that code is credited to the originating `exec_command` call (see `build-tool-calls.ts`);
 * - `web_search` (function call, `web_search_call` response item, `WebSearch` item / `web_search_end`
 *   event, all read as `web_search`) → `web`;
 * - `update_plan` (the plan/todo list) and `request_user_input` (a question to the user) → `plan`;
 * - `tool_search`, MCP and dynamic tools → `other`, which core treats conservatively;
 * - code mode's `exec` (a JavaScript cell) and `wait`, and the collaboration tools (`spawn_agent`,
 *   `wait_agent`…) → `other`: containers whose work is recorded as calls of its own (the cell's
 *   nested items or literal calls, the subagent's rollout).
 */
export function mapCodexToolName(rawName: string): ToolKind {
  switch (canonicalCodexToolName(rawName)) {
    case 'exec_command':
    case 'shell':
    case 'shell_command':
    case 'local_shell_call':
    case 'local_shell':
    case 'container.exec':
    case 'CommandExecution':
    case 'exec_command_end':
      return 'shell';
    case 'apply_patch':
    case 'FileChange':
    case 'patch_apply_end':
      return 'patch';
    case 'view_image':
    case 'ImageView':
    case 'view_image_tool_call':
      return 'read';
    case 'web_search':
      return 'web';
    case 'update_plan':
    case 'request_user_input':
      return 'plan';
    default:
      return 'other';
  }
}
