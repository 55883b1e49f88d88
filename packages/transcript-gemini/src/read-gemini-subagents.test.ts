import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellToolCall, TurnTimeline } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, read, toJsonl } from './gemini-test-support.ts';

// gemini-cli 0.61 records each subagent invocation in `chats/<main sessionId>/<agentId>.jsonl`
// (ChatRecordingService with kind "subagent", LocalAgentExecutor's random agentId), and the invoking
// tool call of the main recording carries `agentId` (recordCompletedToolCalls). The records below have
// the shapes of the recorded 0.61 fixtures.

const SESSION = 'c16cc519-31e7-44ba-ba68-8c5ef3ba283b';
const AGENT = '7f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f';
const PROJECT = '21a1f45773562ac0e355129ec44dc896dbfeb7c583ee56c3a7afc5fbde0c3099';
const T = (seconds: number): string => new Date(Date.UTC(2026, 10, 22, 2, 17, 0) + seconds * 1000).toISOString();

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const shell = (id: string, command: string, at: number, exitCode = 0): Record<string, unknown> => ({
  id,
  name: 'run_shell_command',
  args: { command, description: 'Run' },
  result: [{ functionResponse: { id, name: 'run_shell_command', response: { output: `Output: ok${exitCode === 0 ? '' : `\nExit Code: ${exitCode}`}\nProcess Group PGID: 1` } } }],
  status: 'success',
  timestamp: T(at),
  displayName: 'Shell',
});
const edit = (id: string, filePath: string, at: number): Record<string, unknown> => ({
  id,
  name: 'replace',
  args: { file_path: filePath, old_string: 'a', new_string: 'b' },
  result: [{ functionResponse: { id, name: 'replace', response: { output: `Successfully modified file: ${filePath} (1 replacements).` } } }],
  status: 'success',
  timestamp: T(at),
  displayName: 'Edit',
});
const gemini = (id: string, at: number, toolCalls: unknown[], content = ''): Record<string, unknown> => ({
  id,
  timestamp: T(at),
  type: 'gemini',
  content,
  thoughts: [],
  tokens: { input: 100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 110 },
  model: 'gemini-2.5-flash',
  ...(toolCalls.length > 0 ? { toolCalls } : {}),
});
const user = (id: string, at: number, text: string): Record<string, unknown> => ({ id, timestamp: T(at), type: 'user', content: [{ text }] });

/** A main recording whose turn invokes the `generalist` subagent, and that subagent's recording. */
function session(options: { restart: boolean }): { dir: string; main: string; subagent: string } {
  const temp = makeTempDir('ac-gemini-subagents-');
  cleanups.push(temp.cleanup);
  const chats = join(temp.dir, 'chats');
  mkdirSync(join(chats, SESSION), { recursive: true });
  const main = join(chats, 'session-2026-11-22T02-17-c16cc519.jsonl');
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
  writeFileSync(
    main,
    toJsonl([
      { sessionId: SESSION, projectHash: PROJECT, startTime: T(0), lastUpdated: T(0), kind: 'main' },
      user('u1', 1, 'Please do the task.'),
      gemini('g1', 2, [shell('run_shell_command__run_shell_command_1795313861000_0', 'git status', 2.5)]),
      gemini('g2', 3, [invoke]),
      gemini('g3', 11, [], 'Done.'),
    ]),
  );
  const subagent = join(chats, SESSION, `${AGENT}.jsonl`);
  writeFileSync(
    subagent,
    toJsonl([
      { sessionId: AGENT, projectHash: PROJECT, startTime: T(3.1), lastUpdated: T(3.1), kind: 'subagent', directories: ['/home/user/repo'] },
      user('s-u1', 3.2, 'Fix the daemon and restart it.'),
      gemini('s-g1', 4, [edit('replace__replace_1795313864000_0', '/home/user/repo/daemon/server.py', 4.5)]),
      gemini('s-g2', 5, options.restart ? [shell('run_shell_command__run_shell_command_1795313865000_0', 'make restart', 5.5)] : []),
      gemini('s-g3', 6, [{ id: 'complete_task__complete_task_1795313866000_0', name: 'complete_task', args: { result: 'Done.' }, status: 'success', timestamp: T(6.5) }]),
    ]),
  );
  return { dir: temp.dir, main, subagent };
}

const commands = (timeline: TurnTimeline): string[] =>
  timeline.calls.map((call) => (call.kind === 'shell' ? (call as ShellToolCall).command : `${call.rawName}${call.paths.length > 0 ? ` ${call.paths.join(',')}` : ''}`));
const codes = (timeline: TurnTimeline): string[] => timeline.diagnostics.map((d) => d.code);

describe('Gemini subagent recordings belong to the turn', () => {
  it('the invoked subagent\'s calls come between the invoking call\'s start and its result, marked with their origin', () => {
    const { main } = session({ restart: true });
    const timeline = read(main, { hint: { prompt: 'Please do the task.' } });
    expect(commands(timeline)).toEqual(['git status', 'replace /home/user/repo/daemon/server.py', 'make restart', 'complete_task', 'generalist']);
    const origin = { kind: 'subagent', agentId: AGENT, agentType: 'generalist', parentCallId: 'generalist__generalist_1795313861164_0' };
    expect(timeline.calls.map((call) => call.origin)).toEqual([undefined, origin, origin, origin, undefined]);
    expect(timeline.calls[2]).toMatchObject({ kind: 'shell', exitCode: 0, outcome: 'success' });
    expect(codes(timeline)).toEqual(['subagents-read']);
    expect(timeline.truncated).toBe(false);
    expect(read(main, { hint: { prompt: 'Please do the task.' } }, { subagents: false }).calls.map((call) => call.rawName)).toEqual(['run_shell_command', 'generalist']);
  });

  it('no restart in the subagent: none in the timeline', () => {
    const { main } = session({ restart: false });
    expect(commands(read(main))).toEqual(['git status', 'replace /home/user/repo/daemon/server.py', 'complete_task', 'generalist']);
  });

  it('a symlinked recording or session folder is refused; a missing one is a diagnostic; never a throw', () => {
    const { dir, main, subagent } = session({ restart: true });
    const elsewhere = join(dir, 'elsewhere.jsonl');
    renameSync(subagent, elsewhere);
    symlinkSync(elsewhere, subagent);
    expect(codes(read(main))).toEqual(['subagent-refused']);
    rmSync(subagent);
    expect(codes(read(main))).toEqual(['subagent-missing']);
    const folder = join(dir, 'chats', SESSION);
    rmSync(folder, { recursive: true });
    mkdirSync(join(dir, 'outside'));
    symlinkSync(join(dir, 'outside'), folder);
    const refused = read(main);
    expect(codes(refused)).toEqual(['subagent-refused']);
    expect(commands(refused)).toEqual(['git status', 'generalist']);
  });

  it('bounded: the recordings share the byte cap; a cut read is truncated with cap-reached', () => {
    const { main, subagent } = session({ restart: true });
    writeFileSync(subagent, toJsonl([user('s-u0', 3.15, 'x'.repeat(20_000))]) + '\n', { flag: 'a' });
    const full = read(main, { maxBytes: 1_000_000 });
    expect(full.truncated).toBe(false);
    const capped = read(main, { maxBytes: 12_000 });
    expect(capped.truncated).toBe(true);
    expect(codes(capped)).toContain('cap-reached');
  });
});
