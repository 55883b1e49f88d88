import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentId } from '../agent-id.ts';
import { DEFAULT_PREFIX } from '../config/default-config.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import {
  DEFAULT_TRANSCRIPT_MAX_BYTES,
  type ReadTurnRequest,
  type TranscriptReader,
  type TurnHint,
} from '../transcript/transcript-reader.ts';
import { SHARED_DIAGNOSTIC_CODES } from './transcript-diagnostic-codes.ts';
import {
  createTempFiles,
  garbageBytes,
  joinBytes,
  lineEnds,
  splitLines,
  writeRepeated,
  type TempFiles,
} from './transcript-generated-inputs.ts';
import { neutralCalls } from './transcript-neutral-calls.ts';
import {
  loadHints,
  readRecordedScripts,
  recordedTranscriptPath,
  type HintSource,
} from './transcript-recorded-fixtures.ts';
import {
  RECORDED_SCENARIOS,
  SCENARIO_GOLDENS,
  describeStep,
  forbiddenReads,
  matchSteps,
  type GoldenTurn,
  type InterruptedOutcome,
  type ReaderDeviations,
  type RecordedScenarioName,
  type ScenarioGolden,
  type StepMatchOptions,
} from './transcript-scenario-goldens.ts';
import { describeSubagentConformance, type SubagentConformance } from './transcript-subagent-suite.ts';
import { timelineViolations } from './transcript-timeline-invariants.ts';
import { describeWindowsConformance, type WindowsConformance } from './transcript-windows-suite.ts';

/**
 * The shared conformance suite of transcript readers, in the manner of unstorage's `testDriver`: each
 * transcript package calls {@link describeTranscriptReaderConformance} from its own
 * `src/conformance.test.ts` with its reader, its real-CLI recordings and the other agents' recordings.
 * Core never imports a transcript package; everything arrives through the options.
 *
 * Two halves:
 *
 * 1. **The reader contract**, on inputs the suite generates in a temp dir (removed afterwards): a
 *    missing path, a directory, an empty / whitespace-only / binary / plain-text file, a line larger
 *    than the cap, each other agent's transcripts, an aborted signal (also during a flush wait), a
 *    hint that names no turn, odd requests, copies of every fixture cut at every line and at random
 *    bytes, lines shuffled, random bytes, and each fixture repeated into a file of 20 MiB or more. The
 *    reader must never throw or reject, must always return a valid timeline
 *    ({@link timelineViolations}), must use the {@link SHARED_DIAGNOSTIC_CODES}, must never read more
 *    than the byte cap, must find the same last turn in the large file as in the original, and must
 *    let the turn of a growing file only grow. Subagent transcripts ({@link SubagentConformance}):
 *    each reader passes its cases (the subagents' calls in the turn, in time order, marked with their
 *    origin; a missing, corrupt or symlinked subagent file never breaks the main timeline) or says
 *    why its agent has none.
 * 2. **Scenario equivalence**: each recorded scenario must produce the timeline its agent-neutral
 *    golden describes ({@link SCENARIO_GOLDENS}), unhinted and with the hints of every recorded
 *    end-of-turn event, and earlier turns must read right from the transcript as it stood when they
 *    ended. Agent differences are explicit {@link ReaderDeviations} with a reason.
 */
export interface TranscriptReaderConformanceOptions {
  /** The reader under test. */
  readonly reader: TranscriptReader;
  /** The agent it reads; every timeline must carry it. */
  readonly agent: AgentId;
  readonly fixtures: {
    /** `fixtures/<agent>/<cli-version>/recorded`: one `<scenario>.jsonl` per recorded scenario. */
    readonly recordedDir: string;
    /**
     * More real transcripts of this agent (hand-recorded samples). They join the contract checks
     * (cuts, shuffles, prefixes, caps), not the scenario goldens.
     */
    readonly extra?: readonly string[];
  };
  /** Transcripts of the other agents: each must give `hasData: false` with `wrong-agent`. */
  readonly foreignFixtures: readonly { readonly agent: AgentId; readonly path: string }[];
  /** Where the recorded hints come from (the end-of-turn hook, Codex notify…). At least one. */
  readonly hintSources: readonly HintSource[];
  /** What this agent's CLI cannot record, with the reason. */
  readonly deviations?: ReaderDeviations;
  /**
   * What this CLI records for the interrupted command of `interrupted-turn` (`error` or `pending`),
   * checked exactly; leave it out when the CLI drops the call (see {@link ReaderDeviations}).
   */
  readonly interruptedOutcome?: InterruptedOutcome;
  /** Scenarios this CLI could not record at all, with the reason; reported as skipped tests. */
  readonly skipScenarios?: Partial<Record<RecordedScenarioName, string>>;
  /** The working-directory placeholder of the recordings (default `/WORK/repo`). */
  readonly recordedCwd?: string;
  /** The checkpoint prefix the recordings' block reasons use (default core's `[agent-checkpoint] `). */
  readonly checkpointPrefix?: string;
  /** Size of the generated large file (default 20 MiB). */
  readonly largeFileBytes?: number;
  /**
   * Subagent transcripts (work a turn delegated, recorded in files of their own): the cases this
   * reader must pass, or why its agent has none to read. Required, so no reader is silently without.
   */
  readonly subagents: SubagentConformance;
  /**
   * Sessions the agent ran on Windows (its PowerShell shell tool, Windows paths in tool inputs): the
   * cases this reader must pass, or why none is checked. Required, like `subagents`.
   */
  readonly windows: WindowsConformance;
  /** Runs per property (default 50). */
  readonly propertyRuns?: number;
  /** The excerpt budget the reader was created with (default core's 1 KiB head + 3 KiB tail). */
  readonly excerpt?: { readonly head: number; readonly tail: number };
}

const MiB = 1024 * 1024;
/** Bytes a reader may have read when it honours a deadline: one 64 KiB chunk, twice, plus a format sniff. */
const DEADLINE_BYTES_BOUND = 2 * 64 * 1024 + 8 * 1024;
const SLOW = 120_000;

/** Register the suite (call at the top level of a test file). */
export function describeTranscriptReaderConformance(options: TranscriptReaderConformanceOptions): void {
  const { reader, agent } = options;
  const prefix = options.checkpointPrefix ?? DEFAULT_PREFIX;
  const cwd = options.recordedCwd ?? '/WORK/repo';
  const runs = options.propertyRuns ?? 50;
  const skip = options.skipScenarios ?? {};
  const recorded = RECORDED_SCENARIOS.filter((s) => skip[s] === undefined).map((s) => recordedTranscriptPath(options.fixtures.recordedDir, s));
  const allFixtures = [...recorded, ...(options.fixtures.extra ?? [])];
  let temp: TempFiles;

  const baseRequest = (transcriptPath: string, extra: Partial<ReadTurnRequest> = {}): ReadTurnRequest => ({
    transcriptPath,
    checkpointPrefix: prefix,
    flushWaitMs: 0,
    ...extra,
  });

  /** Read, failing the test on a throw, a rejection or an invalid timeline. */
  const readValid = async (label: string, request: ReadTurnRequest): Promise<TurnTimeline> => {
    let timeline: TurnTimeline;
    try {
      timeline = await reader.readTurn(request);
    } catch (error) {
      throw new Error(`${label}: readTurn threw or rejected: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    const fileBytes = fileSize(request.transcriptPath);
    const violations = timelineViolations(timeline, {
      agent,
      // A cap that is no positive number is ignored by readers (the default applies).
      maxBytes: request.maxBytes !== undefined && Number.isFinite(request.maxBytes) && request.maxBytes > 0 ? request.maxBytes : DEFAULT_TRANSCRIPT_MAX_BYTES,
      ...(fileBytes !== undefined ? { fileBytes } : {}),
      ...(options.excerpt ? { excerpt: options.excerpt } : {}),
    });
    if (violations.length > 0) throw new Error(`${label}: invalid timeline:\n- ${violations.join('\n- ')}`);
    return timeline;
  };

  const expectNoData = (timeline: TurnTimeline, code: string, label: string): void => {
    expect(timeline.hasData, `${label}: hasData`).toBe(false);
    expect(codes(timeline), `${label}: diagnostic codes`).toContain(code);
  };

  describe(`transcript reader conformance: ${agent}`, () => {
    beforeAll(() => {
      temp = createTempFiles(`ac-transcript-conformance-${agent}`);
    });
    afterAll(() => {
      temp.cleanup();
    });

    describeSubagentConformance(reader, agent, prefix, options.subagents);
    describeWindowsConformance(reader, agent, prefix, options.windows);

    describe('contract', () => {
      it('implements transcript-reader-v1 for its agent', () => {
        expect(reader.specificationVersion).toBe('transcript-reader-v1');
        expect(reader.agent).toBe(agent);
        for (const fixture of allFixtures) expect(existsSync(fixture), `fixture ${fixture}`).toBe(true);
        expect(options.hintSources.length, 'at least one hint source').toBeGreaterThan(0);
      });

      it('missing path → missing-file', async () => {
        const timeline = await readValid('missing path', baseRequest(temp.path('does-not-exist.jsonl')));
        expectNoData(timeline, SHARED_DIAGNOSTIC_CODES.missingFile, 'missing path');
      });

      it('directory → not-a-file', async () => {
        const dir = temp.path('a-directory.jsonl');
        mkdirSync(dir, { recursive: true });
        expectNoData(await readValid('directory', baseRequest(dir)), SHARED_DIAGNOSTIC_CODES.notAFile, 'directory');
      });

      it('a path that cannot be read (below a regular file: ENOTDIR, whoever runs it) → unreadable-file', async () => {
        const below = join(temp.write('a-regular-file.jsonl', '{}\n'), 'below.jsonl');
        expectNoData(await readValid('below a file', baseRequest(below)), SHARED_DIAGNOSTIC_CODES.unreadableFile, 'below a file');
      });

      it('empty file and blank lines → empty-file; other whitespace → empty-file or unknown-format', async () => {
        for (const [name, content] of [
          ['empty', ''],
          ['newlines', '\n\n\n'],
        ] as const) {
          expectNoData(await readValid(name, baseRequest(temp.write(`${name}.jsonl`, content))), SHARED_DIAGNOSTIC_CODES.emptyFile, name);
        }
        // Lines of spaces and tabs are not JSON: calling the file empty or of unknown format are both
        // right, as long as it is one of the two.
        const timeline = await readValid('whitespace', baseRequest(temp.write('whitespace.jsonl', '  \n\t\n \r\n  ')));
        expect(timeline.hasData).toBe(false);
        expect(codes(timeline).filter((c) => c === SHARED_DIAGNOSTIC_CODES.emptyFile || c === SHARED_DIAGNOSTIC_CODES.unknownFormat)).toHaveLength(1);
      });

      it('binary garbage and plain text → unknown-format', async () => {
        const inputs: [string, string | Uint8Array][] = [
          ['binary', garbageBytes(8192)],
          ['nul-bytes', new Uint8Array(4096)],
          ['invalid-utf8', Buffer.from([0x7b, 0xff, 0xfe, 0x0a, 0xc3, 0x28, 0x0a])],
          ['plain-text', 'hello world\nthis is not a transcript\n'],
          ['truncated-json', '{"type":\n{"a":\n'],
        ];
        for (const [name, content] of inputs) {
          expectNoData(await readValid(name, baseRequest(temp.write(`${name}.jsonl`, content))), SHARED_DIAGNOSTIC_CODES.unknownFormat, name);
        }
      });

      it('a single line larger than the cap → cap-reached, never reading past the cap', async () => {
        const maxBytes = 64 * 1024;
        const path = temp.write('big-line.jsonl', `${JSON.stringify({ filler: 'x'.repeat(maxBytes * 3) })}\n`);
        const timeline = await readValid('big line', baseRequest(path, { maxBytes }));
        expectNoData(timeline, SHARED_DIAGNOSTIC_CODES.capReached, 'big line');
      });

      it("each other agent's transcript → wrong-agent", async () => {
        expect(options.foreignFixtures.length, 'foreign fixtures given').toBeGreaterThan(0);
        for (const foreign of options.foreignFixtures) {
          const label = `${foreign.agent} transcript ${foreign.path}`;
          expectNoData(await readValid(label, baseRequest(foreign.path)), SHARED_DIAGNOSTIC_CODES.wrongAgent, label);
        }
      });

      it('an aborted signal → resolves, says aborted', async () => {
        const controller = new AbortController();
        controller.abort();
        for (const fixture of recorded) {
          const timeline = await readValid(`aborted ${fixture}`, baseRequest(fixture, { signal: controller.signal, flushWaitMs: 2000 }));
          expect(codes(timeline), `aborted ${fixture}`).toContain(SHARED_DIAGNOSTIC_CODES.aborted);
        }
      });

      it('a turn cut by the byte cap keeps its tail calls (truncated, never 0 calls)', async () => {
        // Independent of the reader: the last call of the whole turn is named (by its id) on lines
        // that all lie in the window once the window reaches the first of them. Every cap from there
        // on must keep that call, hold only calls of the whole turn, and say truncated unless it
        // returns the whole turn.
        for (const fixture of recorded) {
          const full = await readValid(fixture, baseRequest(fixture));
          const last = full.calls.at(-1);
          if (last === undefined) continue;
          const bytes = readFileSync(fixture);
          const id = Buffer.from(JSON.stringify(last.id).slice(1, -1));
          const first = bytes.indexOf(id);
          if (first < 0) continue;
          const ends = lineEnds(new Uint8Array(bytes));
          const lineStart = bytes.lastIndexOf(0x0a, first) + 1;
          // A reader may spend up to an eighth of the cap on the file's head (Gemini sniffs its format).
          const needed = Math.ceil(((bytes.length - lineStart) * 8) / 7);
          const caps = ends.map((end) => bytes.length - end).filter((cap) => cap > needed).slice(-12);
          const fullIds = full.calls.map((call) => call.id);
          for (const maxBytes of [needed, ...caps]) {
            const label = `${fixture} read with maxBytes ${maxBytes}`;
            const timeline = await readValid(label, baseRequest(fixture, { maxBytes }));
            const ids = timeline.calls.map((call) => call.id);
            expect(ids, `${label}: keeps the last call`).toContain(last.id);
            expect(ids.filter((callId) => !fullIds.includes(callId)), `${label}: only calls of the whole turn`).toEqual([]);
            if (!timeline.truncated) expect(ids, `${label}: not truncated means the whole turn`).toEqual(fullIds);
          }
        }
      });

      it('a prompt the user starts with our prefix is a prompt, not a delivered checkpoint', async () => {
        // The recorded second turn, its prompt typed with our prefix in front. With the session's
        // delivery record (none delivered), it must read exactly like the original turn.
        if (skip['second-turn'] !== undefined) return;
        const original = recordedTranscriptPath(options.fixtures.recordedDir, 'second-turn');
        const golden = SCENARIO_GOLDENS['second-turn'].turns.at(-1);
        if (golden === undefined) throw new Error('second-turn golden has no turn');
        const typed = `${prefix}${prefix.endsWith(' ') ? '' : ' '}${golden.prompt}`;
        const escaped = (text: string): string => JSON.stringify(text).slice(1, -1);
        const content = readFileSync(original, 'utf8');
        expect(content, 'the recorded prompt is in the transcript').toContain(escaped(golden.prompt));
        const path = temp.write('prefixed-prompt.jsonl', content.replaceAll(escaped(golden.prompt), escaped(typed)));
        const before = await readValid('second-turn', baseRequest(original, { deliveredDigests: [] }));
        const after = await readValid('second-turn, prompt typed with our prefix', baseRequest(path, { deliveredDigests: [] }));
        expect(after.checkpointsDelivered, 'a typed prefix is no delivered checkpoint').toBe(0);
        expect(after.prompt, 'the prefixed prompt opens the turn').toBe(typed);
        expect(after.calls.map((call) => call.id), 'the same calls as the original turn').toEqual(before.calls.map((call) => call.id));
      });

      describe('the deadline bounds CPU-bound parsing (a tail of 170k tiny lines)', () => {
        // Parsing is synchronous: a timer-based signal cannot fire during it, so readers must check
        // `deadlineAt` themselves. Asserted on the diagnostic and on the bytes parsed, not on wall time.
        const tinyTail = (fixture: string, line: string): string => {
          const name = `tiny-tail-${JSON.stringify(line).replace(/[^a-z0-9]/gi, '')}-${fixture.split('/').at(-1) ?? 'f'}`;
          return temp.write(name, joinBytes([new Uint8Array(readFileSync(fixture)), Buffer.from(`${line}\n`.repeat(170_000))]));
        };

        it('a deadline already passed → resolves with `deadline`, parsing at most a chunk', async () => {
          for (const fixture of recorded.slice(0, 2)) {
            for (const line of ['{}', 'x']) {
              const label = `${fixture} + 170k ${JSON.stringify(line)} lines, deadline passed`;
              const timeline = await readValid(label, baseRequest(tinyTail(fixture, line), { deadlineAt: Date.now() - 1 }));
              expect(codes(timeline), label).toContain(SHARED_DIAGNOSTIC_CODES.deadline);
              expect(timeline.readStats?.bytesRead ?? 0, `${label}: bytes read`).toBeLessThanOrEqual(DEADLINE_BYTES_BOUND);
            }
          }
        });

        it('a deadline that passes while parsing → stops there with `deadline`', async () => {
          for (const fixture of recorded.slice(0, 2)) {
            const path = tinyTail(fixture, '{}');
            // A clock that advances 1 ms each time it is read: the deadline passes after ~20 checks of
            // the clock, a few thousand lines into the 170k.
            let now = Date.now();
            const clock = vi.spyOn(Date, 'now').mockImplementation(() => (now += 1));
            let timeline: TurnTimeline;
            try {
              timeline = await readValid(`${fixture} + 170k tiny lines, deadline mid-parse`, baseRequest(path, { deadlineAt: now + 20 }));
            } finally {
              clock.mockRestore();
            }
            expect(codes(timeline), fixture).toContain(SHARED_DIAGNOSTIC_CODES.deadline);
            expect(timeline.readStats?.bytesRead ?? 0, `${fixture}: bytes read`).toBeLessThanOrEqual(DEADLINE_BYTES_BOUND);
          }
        });
      });

      it(
        'an abort ends a wait for a lagging write: resolves long before flushWaitMs',
        async () => {
          // A final assistant text that is not in the file makes a reader that waits for lagging writes
          // (Claude's flush timer) wait; the signal must end that wait. Readers that never wait return at
          // once. The 60 s wait is far beyond this test's own timeout, so ignoring the signal fails it.
          for (const fixture of recorded) {
            const signal = AbortSignal.timeout(50);
            const timeline = await readValid(
              `aborted wait ${fixture}`,
              baseRequest(fixture, { signal, flushWaitMs: 60_000, hint: { lastAssistantMessage: 'a reply that never reaches this transcript' } }),
            );
            expect(timeline.agent).toBe(agent);
          }
        },
        20_000,
      );

      it('a hint naming no turn of the file → the unhinted turn, with turn-not-found', async () => {
        const hint: TurnHint = { turnId: '00000000-0000-7000-8000-00000000dead', prompt: 'a prompt nobody ever typed' };
        for (const fixture of recorded) {
          const unhinted = await readValid(fixture, baseRequest(fixture));
          const hinted = await readValid(`${fixture} with a hint of no turn`, baseRequest(fixture, { hint }));
          expect(codes(hinted), fixture).toContain(SHARED_DIAGNOSTIC_CODES.turnNotFound);
          // Looking for the hinted turn may read further back: compare what does not depend on that.
          expect(comparable({ ...hinted, diagnostics: [] }), `${fixture}: the fallback is the unhinted turn`).toEqual(comparable({ ...unhinted, diagnostics: [] }));
        }
      });

      it('never changes the file it reads', async () => {
        for (const fixture of allFixtures) {
          const path = temp.put('copy.jsonl', readFileSync(fixture));
          const before = statSync(path);
          const bytes = readFileSync(path);
          await readValid(fixture, baseRequest(path));
          const after = statSync(path);
          expect(after.mtimeMs, fixture).toBe(before.mtimeMs);
          expect(readFileSync(path).equals(bytes), fixture).toBe(true);
        }
      });

      it('reads the same file the same way twice', async () => {
        for (const fixture of allFixtures) {
          expect(await readValid(fixture, baseRequest(fixture)), fixture).toEqual(await readValid(fixture, baseRequest(fixture)));
        }
      });

      it(
        'small caps: never reads past the cap; a cut turn says truncated + cap-reached; a complete one equals the full read',
        async () => {
          for (const fixture of allFixtures) {
            const full = await readValid(fixture, baseRequest(fixture));
            const size = statSync(fixture).size;
            for (const maxBytes of [1, 512, 4096, 16 * 1024, 64 * 1024, 256 * 1024]) {
              if (maxBytes >= size) continue;
              const label = `${fixture} with maxBytes ${maxBytes}`;
              const timeline = await readValid(label, baseRequest(fixture, { maxBytes }));
              expect(timeline.readStats, `${label}: readStats`).toBeDefined();
              if (!timeline.hasData || timeline.truncated) {
                expect(codes(timeline), `${label}: the cap cut the read`).toContain(SHARED_DIAGNOSTIC_CODES.capReached);
              } else {
                expect(comparable(timeline), `${label}: claims the whole turn, so must equal the full read`).toEqual(comparable(full));
              }
            }
          }
        },
        SLOW,
      );

      it(
        'every line-prefix (a transcript being written): valid, no-turn before the first turn, the last turn only grows',
        async () => {
          for (const fixture of allFixtures) {
            const bytes = readFileSync(fixture);
            const final = await readValid(fixture, baseRequest(fixture));
            // The session's sibling folder (Claude's `<session>/subagents/`) goes along with the
            // prefix, as it lies next to the transcript the hook reads.
            const sessionDir = fixture.replace(/\.jsonl$/, '');
            rmSync(temp.path('prefix'), { recursive: true, force: true });
            if (sessionDir !== fixture && existsSync(sessionDir)) cpSync(sessionDir, temp.path('prefix'), { recursive: true });
            let lastCheckpoints = 0;
            for (const end of lineEnds(bytes)) {
              const label = `${fixture} cut after byte ${end}`;
              const timeline = await readValid(label, baseRequest(temp.put('prefix.jsonl', bytes.subarray(0, end))));
              if (!timeline.hasData) {
                expect(codes(timeline), `${label}: no data in this agent's own file`).toContain(SHARED_DIAGNOSTIC_CODES.noTurn);
                continue;
              }
              if (final.turnId === undefined || timeline.turnId !== final.turnId) continue;
              const problems = growthProblems(timeline, final);
              expect(problems, label).toEqual([]);
              expect(timeline.checkpointsDelivered, `${label}: checkpoints never decrease`).toBeGreaterThanOrEqual(lastCheckpoints);
              lastCheckpoints = timeline.checkpointsDelivered;
            }
          }
        },
        SLOW,
      );

      it(
        `bounded read: each recording repeated to ≥ ${Math.round((options.largeFileBytes ?? 20 * MiB) / MiB)} MiB gives the same last turn within the cap`,
        async () => {
          const target = options.largeFileBytes ?? 20 * MiB;
          for (const fixture of recorded) {
            const original = await readValid(fixture, baseRequest(fixture));
            const path = temp.path('large.jsonl');
            const size = writeRepeated(path, readFileSync(fixture), target);
            expect(size).toBeGreaterThanOrEqual(target);
            for (const maxBytes of [undefined, 256 * 1024]) {
              const label = `${fixture} ×${Math.round(size / statSync(fixture).size)} (${size} bytes), maxBytes ${maxBytes ?? 'default'}`;
              const timeline = await readValid(label, baseRequest(path, maxBytes === undefined ? {} : { maxBytes }));
              expect(timeline.readStats, `${label}: readStats`).toBeDefined();
              expect(timeline.readStats!.fileBytes, label).toBe(size);
              expect(timeline.readStats!.bytesRead, label).toBeLessThanOrEqual(maxBytes ?? DEFAULT_TRANSCRIPT_MAX_BYTES);
              if (timeline.truncated) {
                // The turn is longer than this cap: only the tail can match.
                expect(codes(timeline), label).toContain(SHARED_DIAGNOSTIC_CODES.capReached);
                continue;
              }
              expect(comparable(timeline), label).toEqual(comparable(original));
            }
          }
          rmSync(temp.path('large.jsonl'), { force: true });
        },
        SLOW,
      );

      describe('properties (fast-check)', () => {
        const fixtureBytes = (): Uint8Array[] => allFixtures.map((f) => new Uint8Array(readFileSync(f)));

        it(
          'arbitrary bytes → a valid timeline, never a throw',
          async () => {
            await fc.assert(
              fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) => {
                await readValid('arbitrary bytes', baseRequest(temp.put('bytes.jsonl', bytes)));
              }),
              { numRuns: runs },
            );
          },
          SLOW,
        );

        it(
          'arbitrary JSON lines → a valid timeline',
          async () => {
            await fc.assert(
              fc.asyncProperty(fc.array(fc.json({ maxDepth: 3 }), { maxLength: 30 }), async (lines) => {
                await readValid('json lines', baseRequest(temp.put('json.jsonl', `${lines.join('\n')}\n`)));
              }),
              { numRuns: runs },
            );
          },
          SLOW,
        );

        it(
          'odd requests (caps, prefixes, hints of any value) on every fixture → a valid timeline',
          async () => {
            const maybe = <T,>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
            await fc.assert(
              fc.asyncProperty(
                fc.constantFrom(...allFixtures),
                maybe(fc.oneof(fc.integer({ min: -10, max: 2 * MiB }), fc.double(), fc.constantFrom(0, 1, Number.NaN, Number.POSITIVE_INFINITY))),
                fc.oneof(fc.constant(prefix), fc.string({ maxLength: 40 }), fc.constantFrom('', ' ', '[', '{"type"')),
                fc.record({ turnId: maybe(fc.string({ maxLength: 80 })), prompt: maybe(fc.string({ maxLength: 200 })) }),
                async (fixture, maxBytes, checkpointPrefix, rawHint) => {
                  const hint: TurnHint = {
                    ...(rawHint.turnId !== undefined ? { turnId: rawHint.turnId } : {}),
                    ...(rawHint.prompt !== undefined ? { prompt: rawHint.prompt } : {}),
                  };
                  await readValid(
                    `${fixture} with maxBytes ${String(maxBytes)}, prefix ${JSON.stringify(checkpointPrefix)}, hint ${JSON.stringify(hint)}`,
                    baseRequest(fixture, { checkpointPrefix, hint, ...(maxBytes === undefined ? {} : { maxBytes }) }),
                  );
                },
              ),
              { numRuns: runs },
            );
          },
          SLOW,
        );

        it(
          'a fixture cut at any byte (head kept, or tail kept) → a valid timeline',
          async () => {
            const all = fixtureBytes();
            await fc.assert(
              fc.asyncProperty(
                fc.constantFrom(...all.keys()),
                fc.double({ min: 0, max: 1, noNaN: true }),
                fc.boolean(),
                fc.integer({ min: 1, max: 1024 * 1024 }),
                async (index, where, keepHead, maxBytes) => {
                  const bytes = all[index]!;
                  const at = Math.floor(where * bytes.length);
                  const cut = keepHead ? bytes.subarray(0, at) : bytes.subarray(at);
                  await readValid(`${allFixtures[index]} cut at ${at} (${keepHead ? 'head' : 'tail'})`, baseRequest(temp.put('cut.jsonl', cut), { maxBytes }));
                },
              ),
              { numRuns: runs },
            );
          },
          SLOW,
        );

        it(
          'a fixture with shuffled, dropped, duplicated or corrupted lines → a valid timeline',
          async () => {
            const all = fixtureBytes().map((bytes) => splitLines(bytes));
            await fc.assert(
              fc.asyncProperty(
                fc.constantFrom(...all.keys()).chain((index) =>
                  fc.tuple(
                    fc.constant(index),
                    fc.shuffledSubarray([...all[index]!.keys()], { minLength: 0, maxLength: all[index]!.length }),
                    fc.array(fc.nat(), { maxLength: 5 }),
                    fc.array(fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 200 })), { maxLength: 3 }),
                  ),
                ),
                async ([index, order, duplicates, garbage]) => {
                  const lines = all[index]!;
                  const picked: Uint8Array[] = order.map((i) => lines[i]!);
                  for (const d of duplicates) if (picked.length > 0) picked.push(picked[d % picked.length]!);
                  for (const [at, bytes] of garbage) picked.splice(at % (picked.length + 1), 0, joinBytes([bytes, new Uint8Array([0x0a])]));
                  await readValid(`${allFixtures[index]} reshuffled`, baseRequest(temp.put('shuffled.jsonl', joinBytes(picked))));
                },
              ),
              { numRuns: runs },
            );
          },
          SLOW,
        );
      });

      it('locateTranscript never throws and finds nothing for unknown or hostile session ids', async () => {
        const home = temp.path('empty-home');
        mkdirSync(home, { recursive: true });
        const ids = [undefined, '', 'no-such-session', '01a20147-0000-7000-8000-000000000000', '../../etc/passwd', '*', '**/*', 'a/b', '\0', 'x'.repeat(5000)];
        for (const sessionId of ids) {
          const request = { homeDir: home, cwd: home, env: { HOME: home }, ...(sessionId === undefined ? {} : { sessionId }) };
          let located: string | undefined;
          try {
            located = await reader.locateTranscript(request);
          } catch (error) {
            throw new Error(`locateTranscript(${JSON.stringify(sessionId)}) threw: ${String(error)}`);
          }
          expect(located, `locateTranscript(${JSON.stringify(sessionId)?.slice(0, 40)})`).toBeUndefined();
        }
      });
    });

    describe(`recorded scenarios (${options.fixtures.recordedDir.split(/[\\/]/).slice(-3).join('/')})`, () => {
      it('the recorder’s scenarios.json still describes what the goldens expect', () => {
        const scripts = readRecordedScripts(options.fixtures.recordedDir);
        for (const name of RECORDED_SCENARIOS) {
          if (skip[name] !== undefined) continue;
          const golden = SCENARIO_GOLDENS[name];
          const script = scripts.find((s) => s.name === name);
          expect(script, `scenarios.json has ${name}`).toBeDefined();
          expect(script!.prompts, `${name}: prompts`).toEqual(golden.turns.map((t) => t.prompt));
          for (const turn of golden.turns) {
            for (const step of turn.steps) {
              if (step.do === 'run' || step.do === 'interrupted-run') {
                expect(script!.commands, `${name}: the script runs ${step.command}`).toContain(step.command);
              }
            }
            if (turn.checkpointsDelivered > 0) {
              expect(script!.blockReason, `${name}: the probe blocks`).toBeDefined();
              expect(script!.blockReason!.startsWith(prefix), `${name}: the block reason carries the prefix`).toBe(true);
              if (turn.lastUserMessageStartsWith !== undefined) expect(script!.blockReason!.startsWith(turn.lastUserMessageStartsWith)).toBe(true);
            }
          }
        }
      });

      for (const name of RECORDED_SCENARIOS) {
        const golden = SCENARIO_GOLDENS[name];
        const reason = skip[name];
        // oxlint-disable-next-line vitest/no-conditional-tests -- a scenario an agent cannot record is listed, as skipped with its reason
        if (reason !== undefined) {
          // oxlint-disable-next-line vitest/no-disabled-tests -- see above: the report shows the skip and why
          it.skip(`${name}: skipped for ${agent} — ${reason}`, () => {});
          continue;
        }
        it(
          `${name}: ${golden.proves}`,
          async () => {
            const problems = await checkScenario(golden);
            expect(problems, `${agent} ${name}`).toEqual([]);
          },
          SLOW,
        );
      }
    });
  });

  /** Every way the recording of `golden` differs from it, as sentences. */
  async function checkScenario(golden: ScenarioGolden): Promise<string[]> {
    const path = recordedTranscriptPath(options.fixtures.recordedDir, golden.name);
    if (!existsSync(path)) return [`${path} does not exist (record it, or skip the scenario with a reason)`];
    const problems: string[] = [];
    const lastIndex = golden.turns.length - 1;
    const lastTurn = golden.turns[lastIndex]!;
    const turnIds: (string | undefined)[][] = golden.turns.map(() => []);

    // 1. The last turn, read without any hint (the fallback every route has).
    const unhinted = await readValid(`${golden.name} unhinted`, baseRequest(path));
    problems.push(...turnProblems(unhinted, lastTurn, `unhinted read`));
    if (lastTurn.finalText !== undefined && unhinted.lastAssistantMessage !== lastTurn.finalText) {
      problems.push(`unhinted read: lastAssistantMessage is ${JSON.stringify(unhinted.lastAssistantMessage)}, expected ${JSON.stringify(lastTurn.finalText)}`);
    }
    turnIds[lastIndex]!.push(unhinted.turnId);

    // 2. The transcript as it stood when each earlier turn ended. Its end-of-turn event fired then,
    // before anything of the next turn was written. Of the line-prefixes that read as that turn, the
    // one with the most calls is taken (the last of equals): a CLI may later rewrite history in a
    // form without tool calls (Gemini CLI's `--resume` writes `$set.messages` with the calls as
    // `functionCall` parts), and the hook of that turn never saw the rewrite.
    const bytes = readFileSync(path);
    const prefixes: { readonly end: number; readonly timeline: TurnTimeline }[] = [];
    if (lastIndex > 0 || golden.turns.some((t) => t.blockedAfterStep !== undefined)) {
      for (const end of lineEnds(bytes)) {
        const timeline = await readValid(`${golden.name} cut after byte ${end}`, baseRequest(temp.put('scenario-prefix.jsonl', bytes.subarray(0, end))));
        prefixes.push({ end, timeline });
      }
    }
    const stoodAt: (string | undefined)[] = golden.turns.map((turn, index) => {
      if (index === lastIndex) return path;
      let best: { readonly end: number; readonly timeline: TurnTimeline } | undefined;
      for (const prefix of prefixes) {
        if (!prefix.timeline.hasData || prefix.timeline.prompt !== turn.prompt) continue;
        if (best === undefined || prefix.timeline.calls.length >= best.timeline.calls.length) best = prefix;
      }
      return best === undefined ? undefined : temp.put(`${golden.name}-turn-${index + 1}-as-it-stood.jsonl`, bytes.subarray(0, best.end));
    });
    for (const [index, turn] of golden.turns.entries()) {
      if (index === lastIndex) continue;
      const stood = stoodAt[index];
      if (stood === undefined) {
        problems.push(`turn ${index + 1} (${JSON.stringify(turn.prompt)}): no prefix of the transcript reads as this turn`);
        continue;
      }
      const timeline = await readValid(`${golden.name} turn ${index + 1} as it stood`, baseRequest(stood));
      problems.push(...turnProblems(timeline, turn, `turn ${index + 1} as the transcript stood when it ended`));
      turnIds[index]!.push(timeline.turnId);
    }

    // 3. Every recorded end-of-turn event, with the hint its route passes, on the transcript as it
    // stood when the event fired. A hint that carries a turn id must also find its turn in the final
    // file, after later turns were written (a late Codex notify; a Stop hook reading a busy session).
    for (const source of options.hintSources) {
      let hints: TurnHint[];
      try {
        hints = loadHints(options.fixtures.recordedDir, golden.name, source);
      } catch (error) {
        problems.push(`${source.name}: cannot load the recorded events: ${String(error)}`);
        continue;
      }
      const expected = golden.turns.flatMap((turn, index) =>
        Array.from({ length: source.fires === 'every-stop' ? turn.stops : turn.completes ? 1 : 0 }, () => index),
      );
      if (hints.length !== expected.length) {
        problems.push(`${source.name}: ${hints.length} recorded event(s), the scenario expects ${expected.length} (turns ${expected.map((t) => t + 1).join(', ')})`);
        continue;
      }
      for (const [i, hint] of hints.entries()) {
        const turnIndex = expected[i]!;
        const turn = golden.turns[turnIndex]!;
        const label = `${source.name} event ${i + 1} (hint ${JSON.stringify(hint)})`;
        const stood = stoodAt[turnIndex];
        if (stood !== undefined) {
          const timeline = await readValid(`${golden.name} ${label}`, baseRequest(stood, { hint }));
          problems.push(...turnProblems(timeline, turn, label));
          turnIds[turnIndex]!.push(timeline.turnId);
        }
        if (hint.turnId !== undefined && turnIndex !== lastIndex) {
          const timeline = await readValid(`${golden.name} ${label} on the final file`, baseRequest(path, { hint }));
          problems.push(...turnProblems(timeline, turn, `${label} on the final file`));
          turnIds[turnIndex]!.push(timeline.turnId);
        }
      }
    }

    // Our block: the turn just before it and just after it, from the growing transcript.
    for (const turn of golden.turns) {
      if (turn.blockedAfterStep === undefined) continue;
      // Nothing in the file marks the block: the turn-id checks below are what is left to check.
      if (options.deviations?.blockReasonNotRecorded !== undefined) continue;
      const own = prefixes.map((p) => p.timeline).filter((t) => t.hasData && t.turnId !== undefined && t.turnId === unhinted.turnId);
      const beforeBlock = own.findLast((t) => t.checkpointsDelivered === 0);
      const afterBlock = own.find((t) => t.checkpointsDelivered === 1);
      const steps = turn.steps.slice(0, turn.blockedAfterStep);
      if (beforeBlock === undefined) problems.push('no prefix shows the turn before our block (checkpointsDelivered 0)');
      else problems.push(...prefixed('just before our block', matchSteps(neutralCalls(beforeBlock.calls, cwd), steps, stepOptions())));
      if (afterBlock === undefined) problems.push('no prefix shows our block delivered into the same turn (same turnId, checkpointsDelivered 1)');
      else problems.push(...prefixed('just after our block', matchSteps(neutralCalls(afterBlock.calls, cwd), steps, stepOptions())));
      if (own.some((t) => t.checkpointsDelivered > turn.checkpointsDelivered)) {
        problems.push(`a prefix counts more than ${turn.checkpointsDelivered} checkpoint(s)`);
      }
    }

    // 4. One id per turn, a different id for each turn.
    const seen = new Map<string, number>();
    for (const [index, ids] of turnIds.entries()) {
      const distinct = new Set(ids);
      if (distinct.has(undefined)) problems.push(`turn ${index + 1}: a read without a turnId`);
      if (distinct.size > 1) problems.push(`turn ${index + 1}: reads disagree on its turnId: ${[...distinct].map(String).join(', ')}`);
      for (const id of distinct) {
        if (id === undefined) continue;
        const other = seen.get(id);
        if (other !== undefined && other !== index) problems.push(`turns ${other + 1} and ${index + 1} share the turnId ${id}`);
        seen.set(id, index);
      }
    }
    return problems;
  }

  function stepOptions(): StepMatchOptions {
    return {
      ...(options.deviations ? { deviations: options.deviations } : {}),
      ...(options.interruptedOutcome ? { interruptedOutcome: options.interruptedOutcome } : {}),
    };
  }

  /** How `timeline` differs from the golden `turn`. */
  function turnProblems(timeline: TurnTimeline, turn: GoldenTurn, label: string): string[] {
    const out: string[] = [];
    if (!timeline.hasData) return [`${label}: hasData is false (${codes(timeline).join(', ')})`];
    if (timeline.truncated) out.push('truncated is true for a small recording');
    if (timeline.prompt !== turn.prompt) out.push(`prompt is ${JSON.stringify(timeline.prompt)}, expected ${JSON.stringify(turn.prompt)}`);
    const blockUnrecorded = options.deviations?.blockReasonNotRecorded !== undefined;
    const delivered = blockUnrecorded ? 0 : turn.checkpointsDelivered;
    if (timeline.checkpointsDelivered !== delivered) {
      out.push(`checkpointsDelivered is ${timeline.checkpointsDelivered}, expected ${delivered}`);
    }
    if (!blockUnrecorded && turn.lastUserMessageStartsWith !== undefined && !timeline.lastUserMessage?.startsWith(turn.lastUserMessageStartsWith)) {
      out.push(`lastUserMessage is ${JSON.stringify(timeline.lastUserMessage)}, expected it to start with ${JSON.stringify(turn.lastUserMessageStartsWith)}`);
    }
    if (timeline.cwd !== undefined && timeline.cwd !== cwd) out.push(`cwd is ${JSON.stringify(timeline.cwd)}, expected ${cwd}`);
    if (timeline.startedAt !== undefined) {
      const started = Date.parse(timeline.startedAt);
      for (const call of timeline.calls) {
        if (call.timestamp !== undefined && Date.parse(call.timestamp) < started) {
          out.push(`call ${call.id} at ${call.timestamp} precedes the turn's start ${timeline.startedAt}`);
        }
      }
    }
    const calls = neutralCalls(timeline.calls, cwd);
    out.push(...matchSteps(calls, turn.steps, stepOptions()));
    out.push(...forbiddenReads(calls, turn.neverReads));
    return prefixed(`${label} [${turn.steps.map(describeStep).join(' → ') || 'no calls'}]`, out);
  }
}

/** The diagnostic codes of a timeline. */
function codes(timeline: TurnTimeline): string[] {
  return timeline.diagnostics.map((d) => d.code);
}

function prefixed(label: string, problems: readonly string[]): string[] {
  return problems.map((p) => `${label}: ${p}`);
}

/** Size of a regular file, undefined when there is none. */
function fileSize(path: string): number | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() ? stats.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The parts of a timeline that must not depend on how much of the file was read: everything but
 * `readStats` and the session facts only found at the start of a file (`cwd`, `cliVersion`), and the
 * usage history, whose window depends on the bytes read.
 */
function comparable(timeline: TurnTimeline): unknown {
  const { readStats: _readStats, cwd: _cwd, cliVersion: _cliVersion, usageHistory: _usageHistory, tokenUsage, ...rest } = timeline;
  return { ...rest, tokenUsage: tokenUsage === undefined ? undefined : { ...tokenUsage } };
}

/**
 * A timeline of a shorter copy of the file, with the same turn id as the full read: its calls must be
 * the first calls of the full read (same ids, in order) and each must be pending or already have its
 * final outcome and exit code.
 */
function growthProblems(partial: TurnTimeline, final: TurnTimeline): string[] {
  const out: string[] = [];
  if (partial.calls.length > final.calls.length) {
    out.push(`${partial.calls.length} calls, more than the ${final.calls.length} of the whole file`);
    return out;
  }
  partial.calls.forEach((call, index) => {
    const later = final.calls[index]!;
    if (call.id !== later.id) {
      out.push(`call #${index} is ${call.id}, the whole file has ${later.id} there`);
      return;
    }
    if (call.kind !== later.kind || call.rawName !== later.rawName) out.push(`call ${call.id} changes kind from ${call.kind}/${call.rawName} to ${later.kind}/${later.rawName}`);
    if (call.outcome !== 'pending' && call.outcome !== later.outcome) out.push(`call ${call.id} is ${call.outcome}, later ${later.outcome}`);
    if (call.outcome !== 'pending' && call.kind === 'shell' && later.kind === 'shell' && call.exitCode !== later.exitCode) {
      out.push(`call ${call.id} has exit code ${String(call.exitCode)}, later ${String(later.exitCode)}`);
    }
  });
  return out;
}

export { SHARED_DIAGNOSTIC_CODES, DIAGNOSTIC_CODE_PATTERN, type SharedDiagnosticCode } from './transcript-diagnostic-codes.ts';
export { timelineViolations, type TimelineExpectations } from './transcript-timeline-invariants.ts';
export { neutralCalls, normalizeCommand, describeNeutralCall, type NeutralCall } from './transcript-neutral-calls.ts';
export {
  RECORDED_SCENARIOS,
  SCENARIO_GOLDENS,
  matchSteps,
  forbiddenReads,
  describeStep,
  type GoldenStep,
  type GoldenTurn,
  type ScenarioGolden,
  type ReaderDeviations,
  type RecordedScenarioName,
  type InterruptedOutcome,
  type StepMatchOptions,
} from './transcript-scenario-goldens.ts';
export {
  recordedTranscripts,
  recordedTranscriptPath,
  loadHints,
  readRecordedScripts,
  type HintSource,
  type RecordedEndOfTurnEvent,
  type RecordedScenarioScript,
} from './transcript-recorded-fixtures.ts';
