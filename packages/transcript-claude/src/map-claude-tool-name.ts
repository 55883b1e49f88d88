import type { ToolKind } from '@agent-checkpoint/core';

/**
 * Client-side Claude Code tools and their unified kind, decided by what each tool can do (the CLI's
 * tools reference and the tool lists of real 2.1.x requests):
 *
 * - `Bash`, and `PowerShell` (the shell tool of Claude Code on Windows, 2.1.x) → `shell`;
 * - `LSP` (language-server navigation and diagnostics: reads code, changes nothing) → `search`;
 * - `WebSearch`, `WebFetch`, and `Artifact` (publishes a file to claude.ai: it reads a local file but
 *   writes none, runs nothing and cannot commit) → `web`;
 * - conversation bookkeeping that touches no file and runs nothing → `plan`: the todo list
 *   (`TodoWrite`/`TodoRead`) and its successor, the task list (`TaskCreate`, `TaskGet`, `TaskList`,
 *   `TaskUpdate`: entries of a list, not processes); plan mode; `AskUserQuestion`; scheduling a later
 *   prompt in the session (`CronCreate`/`CronDelete`/`CronList`, `ScheduleWakeup`: the scheduled
 *   prompt is a turn of its own); loading deferred tool definitions (`ToolSearch`); listing
 *   subagents (`ListAgents`).
 *
 * Everything else is `other`, which core treats conservatively (it may have run anything, committed
 * included), on purpose for: subagents and what runs them (`Task`/`Agent`, `SendMessage`,
 * `Workflow`), background processes (`BashOutput`, `KillShell`, `TaskOutput`, `TaskStop`,
 * `Monitor`), `EnterWorktree`/`ExitWorktree` (create a git worktree, change the directory), skills,
 * `ReportFindings`, MCP resources and every MCP tool (`mcp__<server>__<tool>`).
 */
const CLIENT_KINDS: Readonly<Record<string, ToolKind>> = {
  Read: 'read',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
  Write: 'write',
  Bash: 'shell',
  PowerShell: 'shell',
  Grep: 'search',
  Glob: 'search',
  LS: 'search',
  LSP: 'search',
  WebSearch: 'web',
  WebFetch: 'web',
  Artifact: 'web',
  TodoWrite: 'plan',
  TodoRead: 'plan',
  TaskCreate: 'plan',
  TaskGet: 'plan',
  TaskList: 'plan',
  TaskUpdate: 'plan',
  EnterPlanMode: 'plan',
  ExitPlanMode: 'plan',
  AskUserQuestion: 'plan',
  CronCreate: 'plan',
  CronDelete: 'plan',
  CronList: 'plan',
  ScheduleWakeup: 'plan',
  ToolSearch: 'plan',
  ListAgents: 'plan',
};

/**
 * Server-side tools (`server_tool_use` blocks, ids `srvtoolu_…`) run on the model provider's side:
 * they read and write no local file and run no local program. Consulting another model (`advisor`)
 * and the server's own tool search are `plan`; web search and fetch, and any server tool not known
 * yet (code execution in the provider's sandbox included: it is not the repository's test run), are
 * `web`, which is never a mutation, never evidence and never a commit.
 */
const SERVER_KINDS: Readonly<Record<string, ToolKind>> = {
  advisor: 'plan',
  tool_search_tool_regex: 'plan',
  tool_search_tool_bm25: 'plan',
};

/** Where a tool runs: Claude Code's own tools (`tool_use`) or the provider's (`server_tool_use`). */
export type ClaudeToolSide = 'client' | 'server';

/**
 * Map a Claude Code tool name onto the unified {@link ToolKind}. Pure and total. Names are matched
 * exactly (Claude's tool names are case-sensitive identifiers); an MCP tool that happens to be
 * called `mcp__fs__Read` is still `other`, because its semantics are the server's. The native name
 * is always kept next to the kind as `rawName`, so nothing is lost by the mapping.
 */
export function mapClaudeToolName(name: string, side: ClaudeToolSide = 'client'): ToolKind {
  if (side === 'server') return Object.hasOwn(SERVER_KINDS, name) ? (SERVER_KINDS[name] ?? 'web') : 'web';
  return Object.hasOwn(CLIENT_KINDS, name) ? (CLIENT_KINDS[name] ?? 'other') : 'other';
}
