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
};

/**
 * Map a Gemini tool name to a {@link ToolKind}. Exact, case-sensitive match on the native name;
 * everything else (web_fetch, google_web_search, save_memory, write_todos, MCP tools
 * `server__tool`, subagents…) is `other`.
 */
export function mapGeminiToolName(name: string): ToolKind {
  return Object.hasOwn(KIND_BY_NAME, name) ? (KIND_BY_NAME[name] ?? 'other') : 'other';
}
