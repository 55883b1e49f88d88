/**
 * Speed of the Codex reader on a large rollout. Run with `pnpm --filter @agent-checkpoint/transcript-codex bench`.
 * The file is ~50 MiB of real 0.169 turns (the tmux sample's first turn, repeated with fresh ids); the
 * reader must stay at the same cost as for a small file because it reads only the last turn.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { SAMPLE_PREFIX, TURNS, rollout0169 } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './index.ts';
import { fixtureLines, ordinalOf } from './rollout-test-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'ac-codex-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = fixtureLines(rollout0169('tmux'));
const template = lines.filter((line) => ordinalOf(line) >= 1 && ordinalOf(line) <= 30).join('\n');
const big = join(dir, 'rollout-big.jsonl');
const fd = openSync(big, 'w');
let written = 0;
for (let turn = 0; written < 50 * 1024 * 1024; turn += 1) {
  const chunk = `${template.replaceAll(TURNS.tmux[0], `01a20107-0000-7000-8000-${turn.toString(16).padStart(12, '0')}`)}\n`;
  writeSync(fd, chunk);
  written += chunk.length;
}
closeSync(fd);

const reader = createCodexTranscriptReader();
const small = rollout0169('exec');

describe('readTurn', () => {
  bench('exec sample (57 KB)', async () => {
    await reader.readTurn({ transcriptPath: small, checkpointPrefix: SAMPLE_PREFIX });
  });
  bench('50 MiB rollout, last turn', async () => {
    await reader.readTurn({ transcriptPath: big, checkpointPrefix: SAMPLE_PREFIX });
  });
  bench('50 MiB rollout, unknown turn id (reads the whole 512 KiB cap)', async () => {
    await reader.readTurn({ transcriptPath: big, checkpointPrefix: SAMPLE_PREFIX, hint: { turnId: 'missing' } });
  });
});
