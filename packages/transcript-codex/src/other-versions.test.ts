/**
 * Issue 11, class 5: rollouts written by other Codex versions read as the right timeline. Every case
 * starts from real recorded lines (fixtures/codex/0.169.0) or the older-protocol fixtures, changed
 * only in the way the other version writes them.
 */
import type { ShellToolCall } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_PREFIX, TURNS, olderDerived, rollout0169 } from './codex-fixtures.ts';
import { readCodexTurn } from './read-codex-turn.ts';
import { RolloutTestFiles, fixtureLines } from './rollout-test-files.ts';

const files = new RolloutTestFiles();
afterEach(() => files.cleanup());

type Line = { type: string; payload: Record<string, unknown> } & Record<string, unknown>;
const parse = (line: string): Line => JSON.parse(line) as Line;

function read(path: string, extra: { maxBytes?: number; turnId?: string } = {}) {
  return readCodexTurn({
    transcriptPath: path,
    checkpointPrefix: SAMPLE_PREFIX,
    ...(extra.maxBytes !== undefined ? { maxBytes: extra.maxBytes } : {}),
    ...(extra.turnId !== undefined ? { hint: { turnId: extra.turnId } } : {}),
  });
}

describe('tool names as other versions and models write them', () => {
  it.each([
    ['functions.exec_command', 'functions.apply_patch'],
    [' Exec_Command ', 'APPLY_PATCH'],
    ['functions.EXEC_COMMAND\n', ' functions.apply_patch'],
  ])('%j and %j read as the shell and patch calls of the recorded turn', (shellName, patchName) => {
    const lines = fixtureLines(rollout0169('exec')).map((line) => {
      const entry = parse(line);
      if (entry.type !== 'response_item') return line;
      const payload = entry.payload;
      if (payload['type'] === 'function_call' && payload['name'] === 'exec_command') return JSON.stringify({ ...entry, payload: { ...payload, name: shellName } });
      if (payload['type'] === 'custom_tool_call' && payload['name'] === 'apply_patch') return JSON.stringify({ ...entry, payload: { ...payload, name: patchName } });
      return line;
    });
    const timeline = read(files.writeLines(lines));
    expect(timeline.calls.map((call) => [call.kind, call.rawName, call.outcome])).toEqual([
      ['shell', 'exec_command', 'error'],
      ['shell', 'exec_command', 'success'],
      ['patch', 'apply_patch', 'success'],
    ]);
    expect((timeline.calls[0] as ShellToolCall).exitCode).toBe(3);
    expect((timeline.calls[1] as ShellToolCall).command).toBe('ls && echo listing-ok');
    expect(timeline.calls[2]?.paths).toContain('calc.py');
  });
});
