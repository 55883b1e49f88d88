import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { collectClaudeTurn } from './collect-claude-turn.ts';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { writeRepeatedSession } from './testing/big-transcript.ts';
import { fixture, makeTempDir, PROBE_PREFIX } from './testing/fixtures.ts';

// Target (seed 000): the hook's transcript read stays well under the hook budget whatever the file
// size, because only the current turn (≤ maxBytes) is read. Compare the 170 KiB and 50 MiB rows.
const temp = makeTempDir('ac-claude-bench-');
afterAll(() => temp.cleanup());
const big = join(temp.dir, 'big.jsonl');
const { lastPromptId } = writeRepeatedSession(big, 50 * 1024 * 1024);
const small = fixture('stop-block-json.jsonl');
const reader = createClaudeTranscriptReader();
const tinyTail = join(temp.dir, 'tiny-tail.jsonl');
writeFileSync(tinyTail, `${readFileSync(small, 'utf8')}${'{}\n'.repeat(170_000)}`);

for (const [label, path] of [['170 KiB session', small], ['50 MiB session', big]] as const) {
  const stats = collectClaudeTurn(path, { maxBytes: 512 * 1024, checkpointPrefix: PROBE_PREFIX }).tail;
  console.log(
    `${label}: fileBytes=${stats.fileSize} bytesRead=${stats.bytesRead} linesParsed=${stats.linesVisited} linesPrefiltered=${stats.skippedLines}`,
  );
}

describe('readTurn', () => {
  bench('170 KiB session, fallback (last prompt)', async () => {
    await reader.readTurn({ transcriptPath: small, checkpointPrefix: PROBE_PREFIX });
  });
  bench('50 MiB session, keyed by prompt id', async () => {
    await reader.readTurn({ transcriptPath: big, checkpointPrefix: PROBE_PREFIX, hint: { turnId: lastPromptId } });
  });
  bench('50 MiB session, fallback (last prompt)', async () => {
    await reader.readTurn({ transcriptPath: big, checkpointPrefix: PROBE_PREFIX });
  });
  // Target (issue 11): under 550 ms with a 500 ms deadline (the deadline plus one clock interval of
  // 256 lines), with a `deadline` diagnostic.
  bench('170 KiB session + 170k tiny lines, 500 ms deadline', async () => {
    await reader.readTurn({ transcriptPath: tinyTail, checkpointPrefix: PROBE_PREFIX, flushWaitMs: 0, deadlineAt: Date.now() + 500 });
  });
});

describe('backward collection, with and without the bookkeeping pre-filter', () => {
  bench('last turn, pre-filter on (production)', () => {
    collectClaudeTurn(big, { maxBytes: 512 * 1024, checkpointPrefix: PROBE_PREFIX });
  });
  bench('last turn, pre-filter off', () => {
    collectClaudeTurn(big, { maxBytes: 512 * 1024, checkpointPrefix: PROBE_PREFIX, skipLine: null });
  });
  bench('worst case: unknown prompt id, reads the whole 512 KiB cap, pre-filter on', () => {
    collectClaudeTurn(big, { maxBytes: 512 * 1024, checkpointPrefix: PROBE_PREFIX, turnId: 'not-in-this-file' });
  });
  bench('worst case: unknown prompt id, reads the whole 512 KiB cap, pre-filter off', () => {
    collectClaudeTurn(big, { maxBytes: 512 * 1024, checkpointPrefix: PROBE_PREFIX, turnId: 'not-in-this-file', skipLine: null });
  });
});
