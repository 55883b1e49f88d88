import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ShellToolCall, TurnTimeline } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT, geminiSubagentSession, SESSION, user } from './gemini-subagent-session.ts';
import { makeTempDir, read, toJsonl } from './gemini-test-support.ts';

// Subagent recordings of gemini-cli 0.61 (see gemini-subagent-session.ts for where they come from).

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** The session written to a temp folder. */
function session(options: { restart: boolean }): { dir: string; main: string; subagent: string } {
  const temp = makeTempDir('ac-gemini-subagents-');
  cleanups.push(temp.cleanup);
  const built = geminiSubagentSession(options);
  for (const [path, content] of Object.entries(built.files)) {
    mkdirSync(dirname(join(temp.dir, path)), { recursive: true });
    writeFileSync(join(temp.dir, path), content);
  }
  return { dir: temp.dir, main: join(temp.dir, built.transcript), subagent: join(temp.dir, built.subagentFiles[0] as string) };
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
