import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { expectValidTimeline, fixture, makeTempDir, PROBE_PREFIX } from './testing/fixtures.ts';

const reader = createClaudeTranscriptReader();
let temp: ReturnType<typeof makeTempDir>;
let counter = 0;
beforeAll(() => {
  temp = makeTempDir('ac-claude-prop-');
});
afterAll(() => temp.cleanup());

function write(content: string | Uint8Array): string {
  const path = join(temp.dir, `case-${(counter += 1)}.jsonl`);
  writeFileSync(path, content);
  return path;
}

const FIXTURES = ['stop-block-json.jsonl', 'compact-then-prompt.jsonl', 'subagent-background.jsonl', 'tui-midturn-queued-prompt.jsonl', 'derived/parallel-tool-calls.jsonl'];
const texts = new Map(FIXTURES.map((name) => [name, readFileSync(fixture(name), 'utf8')]));
const hintArb = fc.option(
  fc.record({
    turnId: fc.option(fc.constantFrom('26503c65-2dad-486e-b957-ffba2c73ee59', '962ee5a4-7f22-41ca-b530-f34de0f6982e', 'zzz'), { nil: undefined }),
  }),
  { nil: undefined },
);

async function readSafely(path: string, options: { maxBytes?: number; hint?: { turnId?: string | undefined } | undefined } = {}) {
  const hint = options.hint?.turnId === undefined ? undefined : { turnId: options.hint.turnId };
  const timeline = await reader.readTurn({
    transcriptPath: path,
    checkpointPrefix: PROBE_PREFIX,
    flushWaitMs: 0,
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(hint ? { hint } : {}),
  });
  expectValidTimeline(timeline);
  return timeline;
}

describe('property: the reader never throws and always returns a valid timeline', () => {
  it('on arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) => {
        await readSafely(write(bytes));
      }),
      { numRuns: 150 },
    );
  });

  it('on arbitrary JSON values, one per line, mixed with real lines', async () => {
    const real = (texts.get('stop-block-json.jsonl') ?? '').split('\n').filter(Boolean);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'), fc.constantFrom(...real)), { maxLength: 40 }), async (lines) => {
        await readSafely(write(lines.join('\n')));
      }),
      { numRuns: 100 },
    );
  });

  it('on random truncations of real transcripts; a cut after the last byte changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FIXTURES), fc.double({ min: 0, max: 1, noNaN: true }), hintArb, async (name, fraction, hint) => {
        const text = texts.get(name) ?? '';
        const cut = Math.floor(Buffer.byteLength(text) * fraction);
        const timeline = await readSafely(write(Buffer.from(text).subarray(0, cut)), { hint });
        if (cut === Buffer.byteLength(text)) expect(timeline.hasData).toBe(true);
      }),
      { numRuns: 120 },
    );
  });

  it('on shuffled lines of real transcripts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FIXTURES).chain((name) => {
          const lines = (texts.get(name) ?? '').split('\n').filter(Boolean);
          return fc.shuffledSubarray(lines, { minLength: 0, maxLength: lines.length });
        }),
        hintArb,
        async (lines, hint) => {
          await readSafely(write(lines.join('\n') + '\n'), { hint });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('under any byte cap: never more than the cap, and the calls are the tail of the full turn, identically paired', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FIXTURES), fc.integer({ min: 0, max: 400_000 }), async (name, maxBytes) => {
        const path = fixture(name);
        const full = await readSafely(path);
        const capped = await readSafely(path, { maxBytes });
        expect(capped.readStats?.bytesRead).toBeLessThanOrEqual(maxBytes);
        if (!capped.hasData) return;
        if (!capped.truncated) {
          expect(capped.calls).toEqual(full.calls);
          return;
        }
        expect(capped.calls).toEqual(full.calls.slice(full.calls.length - capped.calls.length));
      }),
      { numRuns: 120 },
    );
  });
});
