import { closeSync, openSync, writeSync } from 'node:fs';
import { afterAll, bench, describe } from 'vitest';
import { createGeminiTranscriptReader } from './create-gemini-transcript-reader.ts';
import { fixtureRecords, makeTempDir, toJsonl } from './gemini-test-support.ts';

// `pnpm --filter @agent-checkpoint/transcript-gemini bench`: the monitor's read after every tool call
// (readLatestUsage) on a 1 MiB and a 100 MiB recording of real 0.61 rounds, next to readTurn.
const records = fixtureRecords('session-headless-deny-tools.jsonl');
const rounds = toJsonl(records.slice(4, 28));
const temp = makeTempDir('ac-gemini-latest-usage-bench-');
afterAll(() => temp.cleanup());

function writeRecording(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, toJsonl(records.slice(0, 4)));
    for (let n = 0, size = 0; size < bytes; n += 1) {
      size += writeSync(fd, rounds.replace(/"id":"([^"]+)"/g, (_m, id: string) => `"id":"${id}-r${n}"`));
    }
  } finally {
    closeSync(fd);
  }
}
const reader = createGeminiTranscriptReader();
const files = [
  ['1 MiB', `${temp.dir}/1mib.jsonl`, 1024 * 1024],
  ['100 MiB', `${temp.dir}/100mib.jsonl`, 100 * 1024 * 1024],
] as const;
for (const [, path, bytes] of files) writeRecording(path, bytes);

// What each read touches: bytes read of the file, records returned.
for (const [label, path] of files) {
  for (const history of [1, 20]) {
    const found = await reader.readLatestUsage?.({ transcriptPath: path, history });
    console.log(`gemini ${label} history=${history}: bytesRead=${found?.readStats.bytesRead} of ${found?.readStats.fileBytes}, records=${found?.history.length}`);
  }
}

for (const [label, path] of files) {
  describe(`Gemini, ${label} recording`, () => {
    bench('readLatestUsage, newest only (history: 1)', async () => {
      await reader.readLatestUsage?.({ transcriptPath: path, history: 1 });
    });
    bench('readLatestUsage, 20 records (default)', async () => {
      await reader.readLatestUsage?.({ transcriptPath: path });
    });
    bench('readTurn (the turn-end read, for comparison)', async () => {
      await reader.readTurn({ transcriptPath: path, checkpointPrefix: '[agent-checkpoint] ' });
    });
  });
}
