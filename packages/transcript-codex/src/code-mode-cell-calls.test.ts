import type { ToolCall, TurnTimeline } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CODE_MODE_0144, rollout0169 } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './index.ts';
import { RolloutTestFiles, fixtureLines } from './rollout-test-files.ts';

const reader = createCodexTranscriptReader();
const files = new RolloutTestFiles();
afterEach(() => files.cleanup());

const read = (transcriptPath: string, turnId?: string): Promise<TurnTimeline> =>
  reader.readTurn({ transcriptPath, checkpointPrefix: '[checkpoint]', ...(turnId !== undefined ? { hint: { turnId } } : {}) });

const view = (call: ToolCall): unknown[] => [call.id, call.kind, call.rawName, call.outcome, call.kind === 'shell' ? call.command : call.paths];

describe('code-mode cells of an older rollout (0.144 form: nested calls only in the script)', () => {
  it('turns each literal tools.* call into a call of unknown outcome, after its cell', async () => {
    const timeline = await read(CODE_MODE_0144.path, CODE_MODE_0144.turns[0]);
    expect(timeline.hasData).toBe(true);
    expect(timeline.calls.map(view)).toEqual([
      ['call_c1', 'other', 'exec', 'success', []],
      ['call_c1#1', 'shell', 'exec_command', 'unknown', 'python3 -m pytest -q test_calc.py'],
      // The nested apply_patch is recorded (`patch_apply_end`, id exec-…): read from there, not twice.
      ['call_c2', 'other', 'exec', 'success', []],
      ['exec-0c000060-1a27-7c33-8de2-000000000006', 'patch', 'patch_apply_end', 'success', ['/WORK/repo/calc.py']],
      // A command in a comment or a string is not a call.
      ['call_c3', 'other', 'exec', 'success', []],
      ['call_c4', 'other', 'exec', 'success', []],
      ['call_c4#1', 'shell', 'exec_command', 'unknown', 'make restart'],
      ['call_c4#2', 'shell', 'exec_command', 'unknown', 'python3 -m pytest -q'],
      // `cmd` built from a variable: a shell call whose command is unknown.
      ['call_c5', 'other', 'exec', 'success', []],
      ['call_c5#1', 'shell', 'exec_command', 'unknown', ''],
    ]);
    const dynamic = timeline.calls.find((call) => call.id === 'call_c5#1');
    expect(dynamic?.input).toMatchObject({ cmd: null, source: 'tools.exec_command({cmd: `wc -l ${file}`})' });
    expect(timeline.calls.every((call) => call.kind !== 'shell' || call.exitCode === undefined)).toBe(true);
    // 0.169 code mode is left alone: its nested calls are items of their own, never read twice.
    const recorded = await read(rollout0169('code-mode-exec'));
    expect(recorded.calls.some((call) => call.id.includes('#'))).toBe(false);
    expect(recorded.calls.filter((call) => call.id.startsWith('exec-')).length).toBeGreaterThan(0);
    expect(timeline.diagnostics).toEqual([
      {
        level: 'warn',
        code: 'code-cell-dynamic-call',
        message: 'Code-mode cell call_c5 makes 1 tool call(s) whose command or patch is not a literal: shell calls with an unknown command.',
      },
    ]);
  });

  it('reports an unreadable cell, a failed nested patch and a cell finished by wait', async () => {
    const timeline = await read(CODE_MODE_0144.path, CODE_MODE_0144.turns[1]);
    expect(timeline.calls.map(view)).toEqual([
      // `Script failed` marks the cell itself as failed.
      ['call_d1', 'other', 'exec', 'error', []],
      ['call_d2', 'other', 'exec', 'error', []],
      // The only apply_patch of a cell that failed with a patch error: that call failed.
      ['call_d2#1', 'patch', 'apply_patch', 'error', ['NOTES.md']],
      ['call_d3', 'other', 'exec', 'success', []],
      // Yielded (`Script running with cell ID 7`), finished by `wait {"cell_id":"7"}`: it ran.
      ['call_d3#1', 'shell', 'exec_command', 'unknown', 'sleep 3; python3 -m pytest -q test_slow.py'],
      ['call_d4', 'other', 'wait', 'success', []],
    ]);
    expect(timeline.diagnostics).toHaveLength(1);
    expect(timeline.diagnostics[0]).toMatchObject({ level: 'warn', code: 'code-cell-unreadable' });
    expect(timeline.diagnostics[0]?.message).toMatch(/^Code-mode cell call_d1 is not JavaScript the parser can read \(Unexpected token \(2:0\)\)/);
  });

  it('reads a cell whose line is written twice once (call ids stay unique)', async () => {
    const lines = fixtureLines(CODE_MODE_0144.path);
    const cell = lines.findIndex((line) => line.includes('"call_id":"call_c4","name":"exec"'));
    const timeline = await read(files.writeLines([...lines.slice(0, cell + 1), lines[cell] ?? '', ...lines.slice(cell + 1)]), CODE_MODE_0144.turns[0]);
    const ids = timeline.calls.map((call) => call.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id.startsWith('call_c4#'))).toEqual(['call_c4#1', 'call_c4#2']);
  });

  it('a yielded cell with no wait yet has pending calls', async () => {
    const lines = fixtureLines(CODE_MODE_0144.path);
    const cut = lines.findIndex((line) => line.includes('"call_id":"call_d4"'));
    const timeline = await read(files.writeLines(lines.slice(0, cut)), CODE_MODE_0144.turns[1]);
    expect(timeline.calls.find((call) => call.id === 'call_d3#1')?.outcome).toBe('pending');
  });

});
