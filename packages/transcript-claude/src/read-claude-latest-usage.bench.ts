import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { writeRepeatedSession } from './testing/big-transcript.ts';
import { makeTempDir, PROBE_PREFIX } from './testing/fixtures.ts';

// `pnpm --filter @agent-checkpoint/transcript-claude bench`: the monitor's read after every tool call
// (readLatestUsage) on a 1 MiB and a 100 MiB session, next to the turn-end read (readTurn). The
// latest-usage read must not grow with the file: only its tail is read.
const temp = makeTempDir('ac-claude-latest-usage-bench-');
afterAll(() => temp.cleanup());
const reader = createClaudeTranscriptReader();
const files = [
  ['1 MiB', join(temp.dir, '1mib.jsonl'), 1024 * 1024],
  ['100 MiB', join(temp.dir, '100mib.jsonl'), 100 * 1024 * 1024],
] as const;
for (const [, path, bytes] of files) writeRepeatedSession(path, bytes);

// What each read touches: bytes read of the file, records returned.
for (const [label, path] of files) {
  for (const history of [1, 20]) {
    const found = await reader.readLatestUsage?.({ transcriptPath: path, history });
    console.log(`claude ${label} history=${history}: bytesRead=${found?.readStats.bytesRead} of ${found?.readStats.fileBytes}, records=${found?.history.length}`);
  }
}

for (const [label, path] of files) {
  describe(`Claude, ${label} session`, () => {
    bench('readLatestUsage, newest only (history: 1)', async () => {
      await reader.readLatestUsage?.({ transcriptPath: path, history: 1 });
    });
    bench('readLatestUsage, 20 records (default)', async () => {
      await reader.readLatestUsage?.({ transcriptPath: path });
    });
    bench('readTurn (the turn-end read, for comparison)', async () => {
      await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, flushWaitMs: 0 });
    });
  });
}
