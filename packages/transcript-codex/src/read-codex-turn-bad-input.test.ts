import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnTimeline } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_PREFIX, TURNS, rollout0169 } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './index.ts';
import { RolloutTestFiles } from './rollout-test-files.ts';

const reader = createCodexTranscriptReader();
const files = new RolloutTestFiles();
afterEach(() => files.cleanup());

function read(transcriptPath: string): Promise<TurnTimeline> {
  return reader.readTurn({ transcriptPath, checkpointPrefix: SAMPLE_PREFIX });
}

function codes(timeline: TurnTimeline): string[] {
  return timeline.diagnostics.map((diagnostic) => diagnostic.code);
}

function expectNoData(timeline: TurnTimeline, code: string): void {
  expect(timeline).toMatchObject({ agent: 'codex', hasData: false, calls: [], checkpointsDelivered: 0, truncated: false });
  expect(codes(timeline)).toContain(code);
  for (const diagnostic of timeline.diagnostics) expect(diagnostic.message.length).toBeGreaterThan(0);
}

describe('readTurn on bad input', () => {
  it('reports a missing file', async () => {
    expectNoData(await read(join(files.dir(), 'nope.jsonl')), 'missing-file');
    expectNoData(await read(''), 'missing-file');
  });

  it('reports an empty file', async () => {
    expectNoData(await read(files.write('')), 'empty-file');
  });

  it('reports a directory', async () => {
    expectNoData(await read(files.dir()), 'not-a-file');
  });

  it('reports a file of blank lines', async () => {
    expectNoData(await read(files.write('\n\n\n')), 'empty-file');
  });

  it('reports binary content', async () => {
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7919 + 13) % 256;
    expectNoData(await read(files.write(bytes)), 'unknown-format');
  });

  it("reports another agent's JSONL (Claude Code) as the wrong agent", async () => {
    const claude = [
      { type: 'user', message: { role: 'user', content: 'fix it' }, uuid: 'a', sessionId: 's', timestamp: '2026-01-01T00:00:00Z' },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] }, uuid: 'b' },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] }, uuid: 'c' },
    ];
    expectNoData(await read(files.writeLines(claude)), 'wrong-agent');
  });

  it("reports Gemini's JSONL and JSON documents", async () => {
    const geminiJsonl = [
      { sessionId: 's', projectHash: 'p', startTime: '2026-01-01T00:00:00Z', kind: 'main' },
      { id: 'm1', type: 'user', content: [{ text: 'hi' }], timestamp: '2026-01-01T00:00:01Z' },
      { $set: { lastUpdated: '2026-01-01T00:00:02Z' } },
    ];
    expectNoData(await read(files.writeLines(geminiJsonl)), 'wrong-agent');
    const geminiJson = JSON.stringify({ sessionId: 's', messages: [{ type: 'user', content: 'hi' }] }, null, 2);
    const timeline = await read(files.write(geminiJson));
    expect(timeline.hasData).toBe(false);
    expect(codes(timeline)).toEqual(expect.arrayContaining(['corrupt-line']));
  });

  it('skips corrupt lines and still reads the turn', async () => {
    const lines = readFileSync(rollout0169('exec'), 'utf8').split('\n');
    lines.splice(12, 0, '{"timestamp":"x","type":"event_msg","payload":{"type":', 'not json at all', '\u0000\u0001\u0002');
    const timeline = await read(files.write(lines.join('\n')));
    expect(timeline).toMatchObject({ hasData: true, turnId: TURNS.exec });
    expect(timeline.calls).toHaveLength(3);
    expect(codes(timeline)).toContain('corrupt-line');
  });

  it('tolerates a last line cut mid-write', async () => {
    const content = readFileSync(rollout0169('exec'), 'utf8');
    const cut = content.slice(0, content.length - 200);
    const timeline = await read(files.write(cut));
    expect(timeline).toMatchObject({ hasData: true, turnId: TURNS.exec });
    expect(timeline.calls).toHaveLength(3);
    expect(codes(timeline)).toContain('corrupt-line');
  });

  it('keeps the latest turn current when its task_started line is corrupt', async () => {
    const [, , third] = TURNS.tmux;
    const lines = readFileSync(rollout0169('tmux'), 'utf8').split('\n');
    const start = lines.findIndex((line) => line.includes('"type":"task_started"') && line.includes(third ?? '-'));
    expect(start).toBeGreaterThan(0);
    lines[start] = (lines[start] ?? '').slice(0, 40);
    const timeline = await reader.readTurn({ transcriptPath: files.write(lines.join('\n')), checkpointPrefix: '[not-ours]' });
    expect(timeline).toMatchObject({ hasData: true, turnId: third, truncated: false, prompt: '[checkpoint] via send-keys\nline two: exit 1 in `false`\nline three' });
    expect(codes(timeline)).toEqual(['corrupt-line']);
  });

  it('reports a rollout with no turn in it', async () => {
    const meta = readFileSync(rollout0169('exec'), 'utf8').split('\n')[0] ?? '';
    expectNoData(await read(files.write(`${meta}\n`)), 'no-turn');
  });

  it('ignores unknown line types, payload types and mistyped fields', async () => {
    const lines = readFileSync(rollout0169('exec'), 'utf8').split('\n').filter(Boolean);
    const noise = [
      { timestamp: 't', type: 'future_line', payload: { anything: true } },
      { timestamp: 't', type: 'event_msg', payload: { type: 'future_event', turn_id: 42 } },
      { timestamp: 't', type: 'response_item', payload: { type: 'function_call', name: 7, call_id: null } },
      { timestamp: 't', type: 'event_msg', payload: { type: 'item_completed', item: { type: 'CommandExecution', id: 5, exit_code: 'three' } } },
      { timestamp: 't', type: 'event_msg', payload: { type: 'token_count', info: null } },
      [1, 2, 3],
      'a string line',
      null,
    ];
    const timeline = await read(files.writeLines([...lines.slice(0, 20), ...noise.map((entry) => JSON.stringify(entry)), ...lines.slice(20)]));
    expect(timeline).toMatchObject({ hasData: true, turnId: TURNS.exec, diagnostics: [] });
    expect(timeline.calls).toHaveLength(3);
  });

  it('stops when aborted and says so', async () => {
    const controller = new AbortController();
    controller.abort();
    const timeline = await reader.readTurn({ transcriptPath: rollout0169('exec'), checkpointPrefix: SAMPLE_PREFIX, signal: controller.signal });
    expect(timeline.hasData).toBe(false);
    expect(codes(timeline)).toContain('aborted');
  });

  it('never rejects, whatever it is given', async () => {
    const weird = [
      { transcriptPath: undefined as unknown as string, checkpointPrefix: SAMPLE_PREFIX },
      { transcriptPath: rollout0169('exec'), checkpointPrefix: undefined as unknown as string },
      { transcriptPath: rollout0169('exec'), checkpointPrefix: SAMPLE_PREFIX, maxBytes: -5 },
      { transcriptPath: rollout0169('exec'), checkpointPrefix: SAMPLE_PREFIX, maxBytes: Number.NaN },
      { transcriptPath: rollout0169('exec'), checkpointPrefix: SAMPLE_PREFIX, hint: { turnId: '' } },
      { transcriptPath: '/dev/null', checkpointPrefix: SAMPLE_PREFIX },
    ];
    for (const request of weird) {
      const timeline = await reader.readTurn(request);
      expect(timeline.agent).toBe('codex');
      expect(Array.isArray(timeline.calls)).toBe(true);
      expect(codes(timeline)).not.toContain('internal-error');
    }
    // A nonsensical cap falls back to the default instead of reading nothing.
    const capped = await reader.readTurn({ transcriptPath: rollout0169('exec'), checkpointPrefix: SAMPLE_PREFIX, maxBytes: -5 });
    expect(capped.calls).toHaveLength(3);
  });
});
