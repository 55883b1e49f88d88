// Shared by the tests of this package only (not exported from index.ts).
import { toJsonl } from './gemini-test-support.ts';

// gemini-cli 0.61 records each subagent invocation in `chats/<main sessionId>/<agentId>.jsonl`
// (ChatRecordingService with kind "subagent", LocalAgentExecutor's random agentId), and the invoking
// tool call of the main recording carries `agentId` (recordCompletedToolCalls). The records below have
// the shapes of the recorded 0.61 fixtures.

export const SESSION = 'c16cc519-31e7-44ba-ba68-8c5ef3ba283b';
export const AGENT = '7f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f';
const PROJECT = '21a1f45773562ac0e355129ec44dc896dbfeb7c583ee56c3a7afc5fbde0c3099';
export const T = (seconds: number): string => new Date(Date.UTC(2026, 10, 22, 2, 17, 0) + seconds * 1000).toISOString();

export const shell = (id: string, command: string, at: number, exitCode = 0): Record<string, unknown> => ({
  id,
  name: 'run_shell_command',
  args: { command, description: 'Run' },
  result: [{ functionResponse: { id, name: 'run_shell_command', response: { output: `Output: ok${exitCode === 0 ? '' : `\nExit Code: ${exitCode}`}\nProcess Group PGID: 1` } } }],
  status: 'success',
  timestamp: T(at),
  displayName: 'Shell',
});
export const edit = (id: string, filePath: string, at: number): Record<string, unknown> => ({
  id,
  name: 'replace',
  args: { file_path: filePath, old_string: 'a', new_string: 'b' },
  result: [{ functionResponse: { id, name: 'replace', response: { output: `Successfully modified file: ${filePath} (1 replacements).` } } }],
  status: 'success',
  timestamp: T(at),
  displayName: 'Edit',
});
export const gemini = (id: string, at: number, toolCalls: unknown[], content = ''): Record<string, unknown> => ({
  id,
  timestamp: T(at),
  type: 'gemini',
  content,
  thoughts: [],
  tokens: { input: 100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 110 },
  model: 'gemini-2.5-flash',
  ...(toolCalls.length > 0 ? { toolCalls } : {}),
});
export const user = (id: string, at: number, text: string): Record<string, unknown> => ({ id, timestamp: T(at), type: 'user', content: [{ text }] });

/**
 * A session whose turn invokes the `generalist` subagent: the main recording and that subagent's
 * recording, by path relative to the project's temp folder.
 */
export function geminiSubagentSession(options: { restart: boolean }): { files: Record<string, string>; transcript: string; subagentFiles: string[] } {
  const transcript = 'chats/session-2026-11-22T02-17-c16cc519.jsonl';
  const subagent = `chats/${SESSION}/${AGENT}.jsonl`;
  const invoke = {
    id: 'generalist__generalist_1795313861164_0',
    name: 'generalist',
    args: { request: 'Fix the daemon and restart it.' },
    result: [{ functionResponse: { id: 'generalist__generalist_1795313861164_0', name: 'generalist', response: { output: "Subagent 'generalist' finished.\nTermination Reason: GOAL\nResult:\nDone." } } }],
    status: 'success',
    timestamp: T(10),
    agentId: AGENT,
    displayName: 'Generalist',
  };
  const main = toJsonl([
    { sessionId: SESSION, projectHash: PROJECT, startTime: T(0), lastUpdated: T(0), kind: 'main' },
    user('u1', 1, 'Please do the task.'),
    gemini('g1', 2, [shell('run_shell_command__run_shell_command_1795313861000_0', 'git status', 2.5)]),
    gemini('g2', 3, [invoke]),
    gemini('g3', 11, [], 'Done.'),
  ]);
  const sub = toJsonl([
    { sessionId: AGENT, projectHash: PROJECT, startTime: T(3.1), lastUpdated: T(3.1), kind: 'subagent', directories: ['/home/user/repo'] },
    user('s-u1', 3.2, 'Fix the daemon and restart it.'),
    gemini('s-g1', 4, [edit('replace__replace_1795313864000_0', '/home/user/repo/daemon/server.py', 4.5)]),
    gemini('s-g2', 5, options.restart ? [shell('run_shell_command__run_shell_command_1795313865000_0', 'make restart', 5.5)] : []),
    gemini('s-g3', 6, [{ id: 'complete_task__complete_task_1795313866000_0', name: 'complete_task', args: { result: 'Done.' }, status: 'success', timestamp: T(6.5) }]),
  ]);
  return { files: { [transcript]: main, [subagent]: sub }, transcript, subagentFiles: [subagent] };
}
