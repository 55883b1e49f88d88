import { closeSync, ftruncateSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentId } from '../agent-id.ts';
import { DEFAULT_PREFIX } from '../config/default-config.ts';
import type { TokenUsage } from '../timeline/turn-timeline.ts';
import {
  DEFAULT_LATEST_USAGE_MAX_BYTES,
  LATEST_USAGE_INITIAL_BYTES,
  type LatestUsage,
  type ReadLatestUsageRequest,
  type TranscriptReader,
} from '../transcript/transcript-reader.ts';
import { createTempFiles, garbageBytes, type TempFiles } from './transcript-generated-inputs.ts';

/**
 * Options of {@link describeLatestUsageConformance}: everything agent-specific arrives here, core
 * never imports a transcript package.
 */
export interface LatestUsageConformanceOptions {
  readonly reader: TranscriptReader;
  readonly agent: AgentId;
  /**
   * Transcript text in the agent's format (no final newline) that records one model call whose context
   * holds `contextTokens` tokens, so that `readLatestUsage` reports exactly that number: one line, or a
   * few whose **last** holds the usage (Codex names the model in a `turn_context` line before it).
   * `index` makes ids and timestamps unique (records are written in increasing `index` order).
   */
  readonly usageLine: (contextTokens: number, index: number) => string;
  /**
   * Real transcripts of this agent (every recorded fixture): on each one whose last turn has usage,
   * `readLatestUsage().usage` must equal `readTurn().tokenUsage` and the histories must agree.
   */
  readonly fixtures: readonly string[];
  /**
   * Bytes the reader may read from the start of a file no larger than the cap to tell its format
   * (Gemini sniffs 4 KiB for the older single-document recording); counted in `readStats.bytesRead`.
   * Default 0.
   */
  readonly headBytes?: number;
  /** Other agents' transcripts: never this agent's usage. */
  readonly foreignFixtures?: readonly string[];
}

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * The shared conformance suite of {@link TranscriptReader.readLatestUsage}, the cheap tail read the
 * monitor runs after every tool call. Each transcript package calls it from its
 * `src/read-<agent>-latest-usage.conformance.test.ts`. It checks, on files generated in a temp dir
 * (removed afterwards) and on the agent's real recordings:
 *
 * - the numbers are the reader's own (`usage` equals `readTurn().tokenUsage` on every recording);
 * - bad input (missing path, directory, FIFO, empty, binary, foreign, usage-free) resolves to
 *   undefined, never a rejection;
 * - a corrupt or truncated last line is skipped: the last complete record wins (also as a property
 *   over random mixes of records, JSON without usage and garbage bytes);
 * - the read is bounded: the first window is 64 KiB, a huge (sparse, 256 MiB) file with usage only at
 *   its end is answered from its tail, a record beyond the cap is never seen, `readStats.bytesRead`
 *   never exceeds the cap;
 * - `history` holds the newest records, oldest first, ending with `usage`, and never lengthens the
 *   read past the window the newest record was found in.
 */
export function describeLatestUsageConformance(options: LatestUsageConformanceOptions): void {
  const { reader, agent, usageLine } = options;
  const read = async (request: ReadLatestUsageRequest): Promise<LatestUsage | undefined> => {
    expect(reader.readLatestUsage, `${agent} reader implements readLatestUsage`).toBeTypeOf('function');
    return reader.readLatestUsage?.(request);
  };
  const lines = (...items: readonly string[]): string => items.map((line) => `${line}\n`).join('');
  /** A valid JSON line of no agent's format, without usage: bulk between records. */
  const filler = (bytes: number): string => {
    const one = `{"filler":"${'x'.repeat(1000)}"}\n`;
    return one.repeat(Math.ceil(bytes / one.length));
  };
  const tokensOf = (found: LatestUsage | undefined): number | undefined => found?.usage.contextTokens;

  describe(`readLatestUsage conformance (${agent})`, () => {
    let temp: TempFiles;
    beforeAll(() => {
      temp = createTempFiles(`latest-usage-${agent}`);
    });
    afterAll(() => temp.cleanup());

    it('is implemented', () => {
      expect(reader.readLatestUsage).toBeTypeOf('function');
    });

    it('reads the newest record of a small file, with readStats', async () => {
      const path = temp.write('small.jsonl', lines(usageLine(1000, 1), usageLine(2000, 2), usageLine(3000, 3)));
      const found = await read({ transcriptPath: path });
      expect(tokensOf(found)).toBe(3000);
      expect(found?.history.map((u) => u.contextTokens)).toEqual([1000, 2000, 3000]);
      expect(found?.history.at(-1)).toEqual(found?.usage);
      expect(found?.model).toBe(found?.usage.model);
      expect(found?.timestamp).toBe(found?.usage.timestamp);
      expect(found?.readStats.fileBytes).toBe(statSync(path).size);
      expect(found?.readStats.bytesRead).toBeLessThanOrEqual(statSync(path).size);
    });

    it('resolves to undefined, never rejects, on bad input', async () => {
      const dir = temp.path('a-directory');
      mkdirSync(dir);
      const bad: Record<string, string> = {
        missing: temp.path('does-not-exist.jsonl'),
        'empty path': '',
        directory: dir,
        'empty file': temp.write('empty.jsonl', ''),
        whitespace: temp.write('blank.jsonl', ' \n\n\t\n'),
        binary: temp.write('binary.jsonl', garbageBytes(200 * KIB)),
        'plain text': temp.write('text.jsonl', 'hello\nworld\n'.repeat(1000)),
        'JSON without usage': temp.write('no-usage.jsonl', filler(300 * KIB)),
        'truncated only record': temp.write('cut.jsonl', usageLine(1000, 1).slice(0, -3)),
      };
      for (const [name, transcriptPath] of Object.entries(bad)) {
        await expect(read({ transcriptPath }), name).resolves.toBeUndefined();
      }
      // Not a path at all (untrusted callers).
      await expect(read({ transcriptPath: 42 as unknown as string })).resolves.toBeUndefined();
    });

    it('never waits on a FIFO', async () => {
      if (process.platform === 'win32') return;
      const { execFileSync } = await import('node:child_process');
      const fifo = temp.path('fifo.jsonl');
      execFileSync('mkfifo', [fifo]);
      await expect(read({ transcriptPath: fifo })).resolves.toBeUndefined();
    });

    it('skips a corrupt tail: the last complete record wins', async () => {
      const garbage = Buffer.from(garbageBytes(4 * KIB)).toString('latin1').replace(/\n/g, ' ');
      const path = temp.write('corrupt-tail.jsonl', `${lines(usageLine(1000, 1), usageLine(2000, 2))}${garbage}\n{"broken": [1, 2\n\u0000\u0000\n`);
      expect(tokensOf(await read({ transcriptPath: path }))).toBe(2000);
    });

    it('skips a truncated last line (a record still being written)', async () => {
      const newest = usageLine(9000, 3);
      // Cut in the middle of the line that holds the usage (the last one).
      const lastLineStart = newest.lastIndexOf('\n') + 1;
      const cut = newest.slice(0, lastLineStart + Math.floor((newest.length - lastLineStart) / 2));
      const path = temp.write('truncated.jsonl', `${lines(usageLine(1000, 1), usageLine(2000, 2))}${cut}`);
      expect(tokensOf(await read({ transcriptPath: path }))).toBe(2000);
    });

    it('corrupt lines between records do not hide older records', async () => {
      const path = temp.write('corrupt-between.jsonl', `${lines(usageLine(1000, 1))}{{{{\n${lines(usageLine(2000, 2))}not json\n`);
      const found = await read({ transcriptPath: path });
      expect(found?.history.map((u) => u.contextTokens)).toEqual([1000, 2000]);
    });

    it('reads only the first 64 KiB when the newest record is there (history: 1)', async () => {
      const path = temp.write('tail-only.jsonl', `${filler(4 * MIB)}${lines(usageLine(1000, 1))}${filler(8 * KIB)}${lines(usageLine(4242, 2))}`);
      const found = await read({ transcriptPath: path, history: 1 });
      expect(tokensOf(found)).toBe(4242);
      expect(found?.history).toHaveLength(1);
      expect(found?.readStats.bytesRead).toBeLessThanOrEqual(LATEST_USAGE_INITIAL_BYTES);
    });

    it('reads further back, past the first 64 KiB, when no record is in it', async () => {
      const path = temp.write('grows.jsonl', `${lines(usageLine(1234, 1))}${filler(300 * KIB)}`);
      const found = await read({ transcriptPath: path });
      expect(tokensOf(found)).toBe(1234);
      expect(found?.readStats.bytesRead).toBeGreaterThan(LATEST_USAGE_INITIAL_BYTES);
      expect(found?.readStats.bytesRead).toBeLessThanOrEqual(DEFAULT_LATEST_USAGE_MAX_BYTES);
    });

    it('never reads past the cap: a record only beyond it is not found', async () => {
      const path = temp.write('beyond-cap.jsonl', `${lines(usageLine(1234, 1))}${filler(2 * MIB)}`);
      const found = await read({ transcriptPath: path });
      expect(found).toBeUndefined();
      const small = await read({ transcriptPath: path, maxBytes: 200 * KIB });
      expect(small).toBeUndefined();
      // Proof that the record is readable when the cap allows it.
      expect(tokensOf(await read({ transcriptPath: path, maxBytes: 3 * MIB }))).toBe(1234);
    });

    it('answers a huge file from its tail: 256 MiB sparse, usage only at the end', async () => {
      const path = temp.path('huge.jsonl');
      const fd = openSync(path, 'w');
      try {
        // Usage records at the head that a reader ignoring the cap would find (and count in history).
        writeSync(fd, lines(usageLine(5, 1), usageLine(6, 2)));
        ftruncateSync(fd, 256 * MIB); // a hole of NUL bytes: no disk used
        writeSync(fd, `\n${lines(usageLine(7777, 3))}`, 256 * MIB);
      } finally {
        closeSync(fd);
      }
      const started = performance.now();
      const found = await read({ transcriptPath: path });
      expect(tokensOf(found)).toBe(7777);
      expect(found?.history.map((u) => u.contextTokens)).toEqual([7777]);
      expect(found?.readStats.fileBytes).toBe(statSync(path).size);
      expect(found?.readStats.bytesRead).toBeLessThanOrEqual(DEFAULT_LATEST_USAGE_MAX_BYTES);
      const one = await read({ transcriptPath: path, history: 1 });
      expect(one?.readStats.bytesRead).toBeLessThanOrEqual(LATEST_USAGE_INITIAL_BYTES);
      // Reading 256 MiB would take far longer than a bounded tail read on any machine.
      expect(performance.now() - started).toBeLessThan(5000);
    });

    it('returns the newest `history` records, oldest first, ending with usage', async () => {
      const records = Array.from({ length: 30 }, (_, i) => usageLine(1000 * (i + 1), i + 1));
      const path = temp.write('history.jsonl', records.map((line) => `${line}\n${filler(900)}`).join(''));
      const five = await read({ transcriptPath: path, history: 5 });
      expect(five?.history.map((u) => u.contextTokens)).toEqual([26000, 27000, 28000, 29000, 30000]);
      expect(five?.usage.contextTokens).toBe(30000);
      const all = await read({ transcriptPath: path, history: 100 });
      expect(all?.history).toHaveLength(30);
      const byDefault = await read({ transcriptPath: path });
      expect(byDefault?.history).toHaveLength(20);
    });

    it('history never lengthens the read: older records only from the newest one\'s window', async () => {
      // Ten records 100 KiB apart, the newest at the end: only it lies in the last 64 KiB.
      const spread = Array.from({ length: 10 }, (_, i) => `${lines(usageLine(1000 * (i + 1), i + 1))}${filler(100 * KIB)}`).join('');
      const path = temp.write('spread.jsonl', `${spread}${lines(usageLine(99_000, 11))}`);
      const found = await read({ transcriptPath: path, history: 20 });
      expect(found?.history.map((u) => u.contextTokens)).toEqual([99_000]);
      // The newest record's chunk, plus at most the one that completes the line crossing its start
      // (and the reader's head read: this file is within the cap).
      expect(found?.readStats.bytesRead).toBeLessThanOrEqual(2 * LATEST_USAGE_INITIAL_BYTES + (options.headBytes ?? 0));
    });

    it('property: the newest complete record wins, whatever junk lies around it', async () => {
      const item = fc.oneof(
        fc.integer({ min: 1, max: 5_000_000 }).map((tokens) => ({ kind: 'usage' as const, tokens })),
        fc.constant({ kind: 'filler' as const }),
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => ({ kind: 'garbage' as const, text: Buffer.from(bytes).toString('latin1').replace(/\n/g, ' ') })),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(item, { maxLength: 25 }), fc.boolean(), async (items, cutLast) => {
          let index = 0;
          const parts: string[] = [];
          const expected: number[] = [];
          for (const entry of items) {
            if (entry.kind === 'usage') {
              index += 1;
              parts.push(`${usageLine(entry.tokens, index)}\n`);
              expected.push(entry.tokens);
            } else parts.push(entry.kind === 'filler' ? filler(200) : `${entry.text}\n`);
          }
          let text = parts.join('');
          if (cutLast) {
            // A record still being written at the end: never reported.
            const partial = usageLine(123_456_789, index + 1);
            const lastLineStart = partial.lastIndexOf('\n') + 1;
            text += partial.slice(0, lastLineStart + Math.floor((partial.length - lastLineStart) / 2));
          }
          const found = await read({ transcriptPath: temp.put('property.jsonl', text), history: 5 });
          if (expected.length === 0) expect(found).toBeUndefined();
          else {
            expect(found?.usage.contextTokens).toBe(expected.at(-1));
            expect(found?.history.map((u) => u.contextTokens)).toEqual(expected.slice(-5));
          }
        }),
        { numRuns: 60 },
      );
    });

    it('survives odd requests', async () => {
      const path = temp.write('odd.jsonl', lines(usageLine(1000, 1), usageLine(2000, 2)));
      const odd: ReadLatestUsageRequest[] = [
        { transcriptPath: path, maxBytes: -1 },
        { transcriptPath: path, maxBytes: Number.NaN },
        { transcriptPath: path, maxBytes: Number.POSITIVE_INFINITY },
        { transcriptPath: path, history: 0 },
        { transcriptPath: path, history: -5 },
        { transcriptPath: path, history: Number.NaN },
        { transcriptPath: path, history: Number.POSITIVE_INFINITY },
        { transcriptPath: path, deadlineAt: Number.NaN },
      ];
      for (const request of odd) {
        const found = await read(request);
        expect(tokensOf(found), JSON.stringify(request)).toBe(2000);
        expect(found?.history.length).toBeGreaterThanOrEqual(1);
      }
      await expect(read({ transcriptPath: path, maxBytes: 0 })).resolves.toBeUndefined();
    });

    it('resolves (never rejects) with an aborted signal or a passed deadline', async () => {
      const path = temp.write('abort.jsonl', `${lines(usageLine(1000, 1))}${filler(500 * KIB)}`);
      const controller = new AbortController();
      controller.abort();
      await expect(read({ transcriptPath: path, signal: controller.signal })).resolves.toBeUndefined();
      const late = await read({ transcriptPath: path, deadlineAt: Date.now() - 1 });
      expect(late === undefined || late.usage.contextTokens === 1000).toBe(true);
    });

    it('finds nothing in other agents’ transcripts', async () => {
      for (const path of options.foreignFixtures ?? []) {
        await expect(read({ transcriptPath: path }), path).resolves.toBeUndefined();
      }
    });

    it('reports the numbers readTurn reports, on every recording of the agent', async () => {
      let compared = 0;
      for (const path of options.fixtures) {
        const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: DEFAULT_PREFIX, flushWaitMs: 0 });
        const found = await read({ transcriptPath: path, maxBytes: 64 * MIB });
        if (!timeline.tokenUsage) continue;
        compared += 1;
        expect(found?.usage, path).toEqual(timeline.tokenUsage);
        const turnHistory: readonly TokenUsage[] = timeline.usageHistory ?? [];
        const common = Math.min(turnHistory.length, found?.history.length ?? 0);
        expect(found?.history.slice(-common), path).toEqual(turnHistory.slice(-common));
      }
      expect(compared, 'recordings with usage compared').toBeGreaterThan(0);
    });
  });
}
