/**
 * Speed of the Codex reader on a large rollout. Run with `pnpm --filter @agent-checkpoint/transcript-codex bench`.
 * The file is ~50 MiB of real 0.169 turns (the tmux sample's first turn, repeated with fresh ids); the
 * reader must stay at the same cost as for a small file because it reads only the last turn.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
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
const tinyTail = join(dir, 'rollout-tiny-tail.jsonl');
writeFileSync(tinyTail, `${readFileSync(small, 'utf8')}${'{}\n'.repeat(170_000)}`);

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
  // Target (issue 11): under 550 ms with a 500 ms deadline (the deadline plus one clock interval of
  // 256 lines), with a `deadline` diagnostic.
  bench('exec sample + 170k tiny lines, 500 ms deadline', async () => {
    await reader.readTurn({ transcriptPath: tinyTail, checkpointPrefix: SAMPLE_PREFIX, deadlineAt: Date.now() + 500 });
  });
});
