import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_TRANSCRIPT_MAX_BYTES, type ShellToolCall } from '@agent-checkpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PREFIX, TURNS, rollout0169 } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './index.ts';
import { RolloutTestFiles, fixtureLines, ordinalOf } from './rollout-test-files.ts';

const reader = createCodexTranscriptReader();
const files = new RolloutTestFiles();
afterAll(() => files.cleanup());

const [TMUX_TURN] = TURNS.tmux;
const CALL_IDS = ['call_mwr7cueb_3', 'call_mwr7cupv_8', 'call_mwr7cv0t_10'];

/** Turn 1 of the tmux sample (task_started … task_complete), with a fresh turn id and call ids. */
function turnCopy(template: readonly string[], index: number): string {
  const turnId = `01a20107-${(index % 0xffff).toString(16).padStart(4, '0')}-7000-8000-${index.toString(16).padStart(12, '0')}`;
  return template
    .map((line) => {
      let out = line.replaceAll(TMUX_TURN ?? '', turnId);
      for (const id of CALL_IDS) out = out.replaceAll(`"${id}"`, `"${id}_r${index}"`);
      return out;
    })
    .join('\n');
}

describe('bounded read of a large rollout (~50 MiB of real turns)', () => {
  let path: string;
  let turns: number;

  beforeAll(() => {
    const lines = fixtureLines(rollout0169('tmux'));
    const head = lines.filter((line) => ordinalOf(line) === 0);
    const template = lines.filter((line) => ordinalOf(line) >= 1 && ordinalOf(line) <= 30);
    path = join(files.dir(), 'rollout-big.jsonl');
    const fd = openSync(path, 'w');
    try {
      writeSync(fd, `${head.join('\n')}\n`);
      let written = 0;
      turns = 0;
      while (written < 50 * 1024 * 1024) {
        const chunk = `${turnCopy(template, turns)}\n`;
        writeSync(fd, chunk);
        written += Buffer.byteLength(chunk);
        turns += 1;
      }
    } finally {
      closeSync(fd);
    }
  });

  it('reads only the last turn and never more than the cap', async () => {
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(50 * 1024 * 1024);
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: SAMPLE_PREFIX });
    const last = turns - 1;
    expect(timeline).toMatchObject({ hasData: true, truncated: false, prompt: 'fix the failing test in calc.py' });
    expect(timeline.turnId).toMatch(new RegExp(`-${last.toString(16).padStart(12, '0')}$`));
    expect(timeline.calls.map((call) => call.id)).toEqual(CALL_IDS.map((id) => `${id}_r${last}`));
    expect((timeline.calls[0] as ShellToolCall).exitCode).toBe(3);
    expect(timeline.readStats?.fileBytes).toBe(size);
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(DEFAULT_TRANSCRIPT_MAX_BYTES);
  });

  it('picks an earlier turn by id when it is inside the cap', async () => {
    const earlier = turns - 3;
    const turnId = `01a20107-${(earlier % 0xffff).toString(16).padStart(4, '0')}-7000-8000-${earlier.toString(16).padStart(12, '0')}`;
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: SAMPLE_PREFIX, hint: { turnId } });
    expect(timeline.turnId).toBe(turnId);
    expect(timeline.calls.map((call) => call.id)).toEqual(CALL_IDS.map((id) => `${id}_r${earlier}`));
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(DEFAULT_TRANSCRIPT_MAX_BYTES);
  });

  it('stays within the cap when the hinted turn is beyond it', async () => {
    const timeline = await reader.readTurn({
      transcriptPath: path,
      checkpointPrefix: SAMPLE_PREFIX,
      hint: { turnId: '01a20107-0000-7000-8000-000000000000' },
      maxBytes: 256 * 1024,
    });
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(256 * 1024);
    expect(timeline.diagnostics.map((diagnostic) => diagnostic.code)).toContain('turn-not-found');
    expect(timeline.hasData).toBe(true);
    expect(timeline.calls).toHaveLength(3);
  });
});

describe('turns longer than the cap', () => {
  /** One genuine turn with `count` commands after the prompt. */
  function longTurn(count: number, outputBytes = 200): string {
    const turnId = '01a20200-0000-7000-8000-000000000001';
    const lines: object[] = [
      { timestamp: '2026-11-22T03:00:00.000Z', type: 'event_msg', payload: { type: 'task_started', turn_id: turnId, started_at: 1795316400 } },
      { timestamp: '2026-11-22T03:00:00.100Z', type: 'event_msg', payload: { type: 'item_completed', turn_id: turnId, item: { type: 'UserMessage', id: 'u', content: [{ type: 'text', text: 'run everything' }] } } },
    ];
    for (let i = 0; i < count; i += 1) {
      const callId = `call_${i}`;
      lines.push(
        { timestamp: '2026-11-22T03:00:01.000Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `make step${i}` }), call_id: callId, internal_chat_message_metadata_passthrough: { turn_id: turnId } } },
        { timestamp: '2026-11-22T03:00:01.100Z', type: 'event_msg', payload: { type: 'item_completed', turn_id: turnId, item: { type: 'CommandExecution', id: callId, command: ['/bin/bash', '-lc', `make step${i}`], status: 'completed', exit_code: 0, aggregated_output: 'x'.repeat(outputBytes) } } },
      );
    }
    return files.writeLines(lines);
  }

  it('marks the timeline truncated and keeps the turn id of the tail it read', async () => {
    const path = longTurn(3000);
    const maxBytes = 128 * 1024;
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: SAMPLE_PREFIX, maxBytes });
    expect(timeline).toMatchObject({ hasData: true, truncated: true, turnId: '01a20200-0000-7000-8000-000000000001' });
    expect(timeline.prompt).toBeUndefined();
    expect(timeline.diagnostics.map((diagnostic) => diagnostic.code)).toContain('cap-reached');
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(maxBytes);
    expect(timeline.calls.length).toBeGreaterThan(100);
    expect(timeline.calls.at(-1)?.id).toBe('call_2999');
  });

  it('is not truncated when the same turn fits', async () => {
    const timeline = await reader.readTurn({ transcriptPath: longTurn(50), checkpointPrefix: SAMPLE_PREFIX, maxBytes: 128 * 1024 });
    expect(timeline).toMatchObject({ truncated: false, prompt: 'run everything' });
    expect(timeline.calls).toHaveLength(50);
  });

  it('survives a single line larger than the cap', async () => {
    const lines = fixtureLines(rollout0169('exec'));
    const huge = JSON.parse(lines.find((line) => line.includes('"type":"function_call_output"')) ?? '{}');
    huge.payload.output = `Chunk ID: x\nWall time: 1 seconds\nProcess exited with code 0\nOutput:\n${'y'.repeat(1024 * 1024)}`;
    const index = lines.findIndex((line) => line.includes('"type":"function_call_output"'));
    lines[index] = JSON.stringify(huge);
    const maxBytes = 512 * 1024;
    const timeline = await reader.readTurn({ transcriptPath: files.writeLines(lines), checkpointPrefix: SAMPLE_PREFIX, maxBytes });
    expect(timeline).toMatchObject({ hasData: true, truncated: true, turnId: TURNS.exec });
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(maxBytes);
    // The calls after the huge line are intact.
    expect(timeline.calls.map((call) => call.id)).toEqual(['call_mwr7cr9m_5', 'call_mwr7crhv_7']);
  });

  it('survives a file that is one line larger than the cap', async () => {
    const path = files.write(`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"${'z'.repeat(300_000)}"}}\n`);
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: SAMPLE_PREFIX, maxBytes: 64 * 1024 });
    expect(timeline.hasData).toBe(false);
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(64 * 1024);
    expect(timeline.diagnostics.map((diagnostic) => diagnostic.code)).toContain('cap-reached');
  });
});
