import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_TRANSCRIPT_MAX_BYTES, excerptText } from '@agent-checkpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { writeRepeatedSession } from './testing/big-transcript.ts';
import { expectValidTimeline, fixture, makeTempDir, PROBE_PREFIX, summarize } from './testing/fixtures.ts';

const reader = createClaudeTranscriptReader();
let temp: ReturnType<typeof makeTempDir>;
beforeAll(() => {
  temp = makeTempDir('ac-claude-bounded-');
});
afterAll(() => temp.cleanup());

describe('bounded read', () => {
  it('reads only the tail of a ~50 MiB session and still finds the last turn', async () => {
    const path = join(temp.dir, 'big.jsonl');
    const { lastPromptId, repetitions } = writeRepeatedSession(path, 50 * 1024 * 1024);
    expect(statSync(path).size).toBeGreaterThanOrEqual(50 * 1024 * 1024);
    for (const hint of [{ turnId: lastPromptId }, undefined]) {
      const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, ...(hint ? { hint } : {}) });
      expectValidTimeline(timeline);
      expect(timeline.readStats?.fileBytes).toBe(statSync(path).size);
      expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(DEFAULT_TRANSCRIPT_MAX_BYTES);
      expect(timeline.truncated).toBe(false);
      expect(timeline.turnId).toBe(lastPromptId);
      expect(timeline.calls).toHaveLength(6);
      expect(timeline.calls.every((call) => call.id.startsWith(`toolu_r${repetitions}_`))).toBe(true);
      expect(timeline.checkpointsDelivered).toBe(1);
      expect(timeline.diagnostics).toEqual([]);
    }
  });

  it('marks the timeline truncated when the turn starts beyond the cap, keeping only its tail', async () => {
    const maxBytes = 20_000;
    for (const hint of [{ turnId: '26503c65-2dad-486e-b957-ffba2c73ee59' }, undefined]) {
      const timeline = await reader.readTurn({
        transcriptPath: fixture('stop-block-json.jsonl'),
        checkpointPrefix: PROBE_PREFIX,
        maxBytes,
        ...(hint ? { hint } : {}),
      });
      expectValidTimeline(timeline);
      expect(timeline.hasData).toBe(true);
      expect(timeline.truncated).toBe(true);
      expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(maxBytes);
      expect(timeline.diagnostics.map((d) => d.code)).toEqual(['cap-reached']);
      expect(timeline.prompt).toBeUndefined();
      expect(timeline.startedAt).toBeUndefined();
      // The tail of the turn: the last calls, each still paired with its own result.
      expect(timeline.calls.length).toBeGreaterThan(0);
      expect(timeline.calls.length).toBeLessThan(6);
      expect(timeline.calls.at(-1)).toMatchObject({ rawName: 'Bash', command: 'echo running-tests && cat notes.txt', outcome: 'success', exitCode: 0 });
      expect(timeline.checkpointsDelivered).toBe(1);
      // With the prompt id, the turn keeps its identity even though its prompt was not read.
      expect(timeline.turnId).toBe(hint?.turnId);
    }
  });

  it('survives a single line larger than the cap inside the turn', async () => {
    const lines = readFileSync(fixture('stop-block-json.jsonl'), 'utf8').split('\n');
    // Replace the Read result (line 43) with a 2 MiB output, as a huge `cat` would be recorded.
    const huge = JSON.parse(lines[42] ?? '');
    huge.message.content[0].content = `${'x'.repeat(2 * 1024 * 1024)}\nEND-OF-HUGE-OUTPUT`;
    lines[42] = JSON.stringify(huge);
    const path = join(temp.dir, 'huge-line.jsonl');
    writeFileSync(path, lines.join('\n'));
    const maxBytes = 512 * 1024;
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, maxBytes });
    expectValidTimeline(timeline);
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(maxBytes);
    expect(timeline.truncated).toBe(true);
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['cap-reached']);
    // Only what follows the huge line is in the window: the block and the call after it.
    expect(timeline.calls.map(summarize)).toEqual([
      { kind: 'shell', rawName: 'Bash', outcome: 'success', command: 'echo running-tests && cat notes.txt', exitCode: 0, paths: [] },
    ]);
    // With a cap above the line, the huge output is read but kept as a bounded excerpt.
    const wide = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, maxBytes: 8 * 1024 * 1024 });
    expect(wide.truncated).toBe(false);
    const read = wide.calls.find((call) => call.rawName === 'Read');
    expect(read?.output?.truncated).toBe(true);
    expect(read?.output?.totalLength).toBe(2 * 1024 * 1024 + '\nEND-OF-HUGE-OUTPUT'.length);
    expect(excerptText(read?.output).endsWith('END-OF-HUGE-OUTPUT')).toBe(true);
    expect((read?.output?.head.length ?? 0) + (read?.output?.tail.length ?? 0)).toBeLessThanOrEqual(4096);
  });

  it('a file that is one line larger than the cap has no data, and says why', async () => {
    const path = join(temp.dir, 'one-line.jsonl');
    const line = JSON.parse(readFileSync(fixture('stop-block-json.jsonl'), 'utf8').split('\n')[2] ?? '');
    line.message.content = 'y'.repeat(300_000);
    writeFileSync(path, `${JSON.stringify(line)}\n`);
    const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, maxBytes: 100_000 });
    expectValidTimeline(timeline);
    expect(timeline.hasData).toBe(false);
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(100_000);
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['cap-reached']);
  });

  it('small backward chunks give the same timeline as the default chunk size', async () => {
    const small = createClaudeTranscriptReader({ chunkBytes: 977 });
    for (const name of ['stop-block-json.jsonl', 'compact-then-prompt.jsonl', 'tui-typed-prompts.jsonl', 'derived/parallel-tool-calls.jsonl']) {
      const request = { transcriptPath: fixture(name), checkpointPrefix: PROBE_PREFIX };
      const a = await reader.readTurn(request);
      const b = await small.readTurn(request);
      expect({ ...b, readStats: undefined }).toEqual({ ...a, readStats: undefined });
    }
  });
});
