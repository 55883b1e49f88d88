import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { SAMPLE_PREFIX, TURNS, rollout0169 } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './index.ts';
import { fixtureLines, ordinalOf } from './rollout-test-files.ts';

// `pnpm --filter @agent-checkpoint/transcript-codex bench`: the monitor's read after every tool call
// (readLatestUsage) on a 1 MiB and a 100 MiB rollout of real 0.169 turns, next to readTurn.
const dir = mkdtempSync(join(tmpdir(), 'ac-codex-latest-usage-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const template = fixtureLines(rollout0169('tmux'))
  .filter((line) => ordinalOf(line) >= 1 && ordinalOf(line) <= 30)
  .join('\n');
function writeRollout(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  try {
    for (let turn = 0, written = 0; written < bytes; turn += 1) {
      const chunk = `${template.replaceAll(TURNS.tmux[0], `01a20107-0000-7000-8000-${turn.toString(16).padStart(12, '0')}`)}\n`;
      written += writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
}
const reader = createCodexTranscriptReader();
const files = [
  ['1 MiB', join(dir, '1mib.jsonl'), 1024 * 1024],
  ['100 MiB', join(dir, '100mib.jsonl'), 100 * 1024 * 1024],
] as const;
for (const [, path, bytes] of files) writeRollout(path, bytes);

// What each read touches: bytes read of the file, records returned.
for (const [label, path] of files) {
  for (const history of [1, 20]) {
    const found = await reader.readLatestUsage?.({ transcriptPath: path, history });
    console.log(`codex ${label} history=${history}: bytesRead=${found?.readStats.bytesRead} of ${found?.readStats.fileBytes}, records=${found?.history.length}`);
  }
}

for (const [label, path] of files) {
  describe(`Codex, ${label} rollout`, () => {
    bench('readLatestUsage, newest only (history: 1)', async () => {
      await reader.readLatestUsage?.({ transcriptPath: path, history: 1 });
    });
    bench('readLatestUsage, 20 records (default)', async () => {
      await reader.readLatestUsage?.({ transcriptPath: path });
    });
    bench('readTurn (the turn-end read, for comparison)', async () => {
      await reader.readTurn({ transcriptPath: path, checkpointPrefix: SAMPLE_PREFIX });
    });
  });
}
