import type { ToolKind } from '@agent-checkpoint/core';

/**
 * Map a Claude Code tool name onto the unified {@link ToolKind}. Pure and total:
 *
 * - `WebSearch`, `WebFetch` → `web` (the model's own web access; no local file, no local program);
 * - `TodoWrite`, `TodoRead` (todo list), `EnterPlanMode`, `ExitPlanMode` (plan mode; the plan itself
 *   is text in the call, not a file) and `AskUserQuestion` → `plan`;
 * - unknown names, subagents (`Task`/`Agent`), skills (`Skill`), background-shell helpers
 *   (`BashOutput`, `KillShell`) and every MCP tool (`mcp__<server>__<tool>`) → `other`, which core
 *   treats conservatively (it may have committed).
 *
 * The native name is always kept next to the kind as `rawName`, so nothing is lost by the mapping.
 *
 * Names are matched exactly (Claude's tool names are case-sensitive identifiers); an MCP tool that
 * happens to be called `mcp__fs__Read` is still `other`, because its semantics are the server's.
 */
export function mapClaudeToolName(name: string): ToolKind {
  switch (name) {
    case 'Read':
      return 'read';
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit':
      return 'edit';
    case 'Write':
      return 'write';
    case 'Bash':
      return 'shell';
    case 'Grep':
    case 'Glob':
    case 'LS':
      return 'search';
    case 'WebSearch':
    case 'WebFetch':
      return 'web';
    case 'TodoWrite':
    case 'TodoRead':
    case 'EnterPlanMode':
    case 'ExitPlanMode':
    case 'AskUserQuestion':
      return 'plan';
    default:
      return 'other';
  }
}
