import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refinesTurnId } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { readQwenTurn } from './read-qwen-turn.ts';

const recorded = join(import.meta.dirname, '../../../fixtures/qwen/0.24.4/recorded');
const PREFIX = '[agent-checkpoint] ';
const payloads = (scenario: string): Record<string, unknown>[] =>
  readFileSync(join(recorded, `${scenario}.hook-payloads.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload);

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('readQwenTurn on Qwen Code 0.24.4 recordings', () => {
  it('takes a shell exit code from resultDisplay, and a failing command is an error', () => {
    const timeline = readQwenTurn({ transcriptPath: join(recorded, 'fail-fix-pass.jsonl'), checkpointPrefix: PREFIX });
    const shells = timeline.calls.filter((call) => call.kind === 'shell');
    expect(shells.map((call) => [call.kind === 'shell' ? call.exitCode : undefined, call.outcome])).toEqual([
      [1, 'error'],
      [0, 'success'],
    ]);
  });

  it('reads `Exit Code: N` from the text when a result has no resultDisplay (a subagent result)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qwen-turn-'));
    temps.push(dir);
    const lines = readFileSync(join(recorded, 'fail-fix-pass.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const record = JSON.parse(line) as Record<string, unknown>;
        delete record['toolCallResult'];
        return JSON.stringify(record);
      });
    const path = join(dir, 'session.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const timeline = readQwenTurn({ transcriptPath: path, checkpointPrefix: PREFIX });
    expect(timeline.calls.filter((call) => call.kind === 'shell').map((call) => (call.kind === 'shell' ? call.exitCode : undefined))).toEqual([1, 0]);
    expect(timeline.calls[0]?.outcome).toBe('error');
  });

  it('keeps the calls after a block in the same turn, whose id refines the payload prompt_id (the block reason is not in the file)', () => {
    const [first, second] = payloads('block-and-continue');
    expect(first?.['prompt_id']).toBe(second?.['prompt_id']);
    expect(second?.['stop_hook_active']).toBe(true);
    const path = join(recorded, 'block-and-continue.jsonl');
    const timeline = readQwenTurn({ transcriptPath: path, checkpointPrefix: PREFIX, hint: { turnId: String(second?.['prompt_id']) } });
    expect(timeline.calls.map((call) => call.rawName)).toEqual(['read_file', 'edit', 'run_shell_command']);
    expect(timeline.checkpointsDelivered).toBe(0);
    expect(refinesTurnId(String(second?.['prompt_id']), timeline.turnId)).toBe(true);
    expect(timeline.diagnostics.map((d) => d.code)).not.toContain('turn-not-found');
  });

  it('gives each prompt of a resumed session its own turn, found by the payload prompt_id', () => {
    const [first, second] = payloads('second-turn');
    const path = join(recorded, 'second-turn.jsonl');
    const earlier = readQwenTurn({ transcriptPath: path, checkpointPrefix: PREFIX, hint: { turnId: String(first?.['prompt_id']) } });
    const later = readQwenTurn({ transcriptPath: path, checkpointPrefix: PREFIX, hint: { turnId: String(second?.['prompt_id']) } });
    expect(earlier.prompt).toBe('Show me the greeting.');
    expect(later.prompt).toBe('Add a farewell line to it.');
    expect(earlier.turnId).not.toBe(later.turnId);
    expect(later.calls.map((call) => [call.rawName, call.outcome])).toEqual([['edit', 'error']]);
  });
});
