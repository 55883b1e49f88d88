import type { ToolKind } from '@agent-checkpoint/core';

/**
 * Gemini CLI built-in tool names (`toolCalls[].name`) and their unified kind. The UI label
 * (`displayName`: `Shell`, `ReadFile`, `WriteFile`, `Edit`…) is deliberately not used: it is
 * presentation text and the original implementation misclassified reads and writes by relying on it.
 */
const KIND_BY_NAME: Readonly<Record<string, ToolKind>> = {
  run_shell_command: 'shell',
  read_file: 'read',
  read_many_files: 'read',
  write_file: 'write',
  replace: 'edit',
  edit: 'edit',
  glob: 'search',
  grep_search: 'search',
  // Name of grep_search before it was renamed; still found in older recordings.
  search_file_content: 'search',
  list_directory: 'search',
  google_web_search: 'web',
  web_fetch: 'web',
  write_todos: 'plan',
  enter_plan_mode: 'plan',
  // Asks the user to approve a plan the agent wrote earlier with write_file (its `plan_path`).
  exit_plan_mode: 'plan',
  ask_user: 'plan',
};

/**
 * Map a Gemini tool name to a {@link ToolKind}. Exact, case-sensitive match on the native name:
 * `google_web_search`/`web_fetch` are `web`; `write_todos`, `enter_plan_mode`, `exit_plan_mode` and
 * `ask_user` are `plan`. Everything else is `other`, which core treats conservatively: `save_memory`
 * (writes the user's global GEMINI.md), `activate_skill`, MCP tools `server__tool`, subagents…
 */
export function mapGeminiToolName(name: string): ToolKind {
  return Object.hasOwn(KIND_BY_NAME, name) ? (KIND_BY_NAME[name] ?? 'other') : 'other';
}
