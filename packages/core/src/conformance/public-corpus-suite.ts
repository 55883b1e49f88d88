import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentId } from '../agent-id.ts';
import { DEFAULT_PREFIX } from '../config/default-config.ts';
import { isFileMutation, type ToolCall } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { DEFAULT_TRANSCRIPT_MAX_BYTES, type TranscriptReader, type TurnHint } from '../transcript/transcript-reader.ts';
import type { PublicCorpusEntry } from './public-corpus-manifest.ts';
import { createTempFiles, type TempFiles } from './transcript-generated-inputs.ts';
import { timelineViolations } from './transcript-timeline-invariants.ts';

/**
 * One call of a turn as an independent parser in the transcript package's test sees it. The parser is
 * deliberately simple and shares no code with the reader: it is the second opinion the reader is held
 * against.
 */
export interface ExpectedCall {
  /** The agent's call id; absent for calls the format gives no id (then only counts are compared). */
  readonly id?: string;
  /** A shell command: its exit status, undefined when the transcript does not record one. */
  readonly shell?: { readonly exitCode: number | undefined };
  /** Paths this call creates, edits, moves or deletes (empty for calls that change no file). */
  readonly editedPaths: readonly string[];
  /** Byte offset in the snapshot of the line that carries the call (for the truncated-read check). */
  readonly offset: number;
}

/** One turn of a corpus file, as the Stop hook at its end saw the file. */
export interface ExpectedTurn {
  /** Human label for test names and messages (`turn 3 (line 120)`). */
  readonly label: string;
  /**
   * The file as it stood when the turn ended: the bytes up to where the next turn starts (JSONL), or
   * the document re-serialised with the messages up to that point (single-JSON formats).
   */
  readonly snapshot: Uint8Array;
  /** Byte offset in the snapshot where the turn starts. */
  readonly startOffset: number;
  /** The turn's working directory, when the transcript records one (paths are compared relative to it). */
  readonly cwd?: string;
  /**
   * What the end-of-turn event would pass (Codex `turn_id`, Claude `prompt_id`) when the file records
   * it: the turn is then read a second time with this hint.
   */
  readonly hint?: TurnHint;
  readonly calls: readonly ExpectedCall[];
}

/** What the independent parser makes of a whole corpus file. */
export interface ExpectedFile {
  /** The CLI version the file's own fields name (undefined when it names none). */
  readonly cliVersion?: string;
  readonly turns: readonly ExpectedTurn[];
}

/**
 * Turns where today's reader is known to differ from the independent count, keyed
 * `<manifest file>#<turn index>` (0-based) or `<manifest file>#*` for every turn of a file, with the
 * reason. The suite fails for an unlisted difference, and also for a listed entry that now matches (so
 * the list only ever shrinks as readers are fixed).
 */
export type KnownCorpusDeviations = Readonly<Record<string, string>>;

export interface PublicCorpusConformanceOptions {
  readonly reader: TranscriptReader;
  readonly agent: AgentId;
  /** This agent's corpus files (see `publicCorpusFiles`). */
  readonly files: readonly { readonly entry: PublicCorpusEntry; readonly path: string }[];
  /** The independent parser: turns, calls, exit statuses and edited paths of a whole file. */
  readonly expectFile: (bytes: Uint8Array, entry: PublicCorpusEntry) => ExpectedFile;
  readonly knownDeviations?: KnownCorpusDeviations;
  /**
   * Reads a format cannot serve by design, with the diagnostic code the reader must give instead of a
   * timeline (e.g. a single-JSON chat file larger than the cap cannot be read from its tail). Such a
   * read passes with `hasData: false` and that code, or with a timeline that matches the count.
   */
  readonly unreadable?: (turn: ExpectedTurn, maxBytes: number) => string | undefined;
  /**
   * A second, small byte cap every turn longer than it is also read with, so that every long turn of
   * the corpus exercises the truncated read (default 32 KiB).
   */
  readonly smallCap?: number;
}

/** Figures of one run, for the report. */
interface TurnOutcome {
  readonly key: string;
  readonly problems: readonly string[];
}

/**
 * The public-corpus conformance run: for every turn of every corpus file, the file cut where the next
 * turn starts is read as the Stop hook would read it (unhinted, and again with the turn id when the
 * file records one), and the reader's calls must match the
 * independent count: the same calls (by id, and in number), the same exit status for each shell
 * command, the same edited paths. A turn that starts before the byte cap must come back `truncated`
 * with the tail calls and no call of an earlier turn. A reader that cannot read a format must say so
 * (`hasData: false` with a diagnostic): that passes only where the package declares the format
 * unreadable for that read (`unreadable`), and is otherwise a deviation, never a silent pass.
 */
export function describePublicCorpusConformance(options: PublicCorpusConformanceOptions): void {
  const { reader, agent } = options;
  const known = options.knownDeviations ?? {};
  const smallCap = options.smallCap ?? 32 * 1024;
  let temp: TempFiles;
  const outcomes: TurnOutcome[] = [];
  const parsed = new Map(options.files.map(({ entry, path }) => [entry.file, parseOnce(path, entry, options.expectFile)]));
  const expectedOf = (entry: PublicCorpusEntry): (() => ExpectedFile) => parsed.get(entry.file) ?? parseOnce('', entry, options.expectFile);

  describe(`public corpus conformance: ${agent}`, () => {
    beforeAll(() => {
      temp = createTempFiles(`ac-public-corpus-${agent}`);
    });
    afterAll(() => {
      // The conformance figures for the report: turns read, matching, differing.
      const differing = outcomes.filter((o) => o.problems.length > 0);
      const summary = `public corpus ${agent}: ${options.files.length} files, ${outcomes.length} turns read, ${outcomes.length - differing.length} match, ${differing.length} differ`;
      process.stdout.write(`${summary}${differing.length > 0 ? `\n  ${differing.map((o) => `${o.key}: ${o.problems.join('; ')}`).join('\n  ')}` : ''}\n`);
      temp.cleanup();
    });

    it('has corpus files', () => {
      expect(options.files.length).toBeGreaterThan(0);
    });

    for (const { entry } of options.files) {
      describe(entry.file, () => {
        const expected = expectedOf(entry);

        it('names the version the manifest records (or none, when the manifest infers it)', () => {
          expect(expected().cliVersion ?? null).toBe(entry.cliVersion);
        });

        it('has at least one turn', () => {
          expect(expected().turns.length).toBeGreaterThan(0);
        });

        const turnCount = countTurnsQuickly(expected);
        for (let index = 0; index < turnCount; index += 1) {
          const key = `${entry.file}#${index}`;
          const reason = known[key] ?? known[`${entry.file}#*`];
          const title = reason === undefined ? `turn ${index}` : `turn ${index} [known deviation: ${reason}]`;
          it(title, async () => {
            const turn = expected().turns[index];
            if (!turn) throw new Error(`${key}: the independent parser found fewer turns on the second parse`);
            const file = temp.put(`${agent}-${index}-${entry.file.split('/').pop() ?? 'corpus'}`, turn.snapshot);
            const problems = [
              ...(await checkRead(reader, agent, file, turn, DEFAULT_TRANSCRIPT_MAX_BYTES, options.unreadable)),
              ...(turn.snapshot.length - turn.startOffset > smallCap ? await checkRead(reader, agent, file, turn, smallCap, options.unreadable) : []),
              ...(turn.hint !== undefined ? await checkRead(reader, agent, file, turn, DEFAULT_TRANSCRIPT_MAX_BYTES, options.unreadable, turn.hint) : []),
            ];
            outcomes.push({ key, problems });
            if (reason === undefined) {
              expect(problems.join('\n'), `${key} (${turn.label}) differs from the independent count`).toBe('');
            } else {
              expect(problems.length, `${key} is listed as a known deviation (${reason}) but now matches: remove it from the list`).toBeGreaterThan(0);
            }
          });
        }
      });
    }

    it('lists no known deviation for a turn the corpus does not have', () => {
      const keys = new Set<string>();
      for (const { entry } of options.files) {
        keys.add(`${entry.file}#*`);
        const turns = expectedOf(entry)().turns;
        for (let index = 0; index < turns.length; index += 1) keys.add(`${entry.file}#${index}`);
      }
      expect(Object.keys(known).filter((key) => !keys.has(key))).toEqual([]);
    });
  });
}

/**
 * Parse a file once. Synchronous: the suite registers one test per turn, so the turns must be known
 * when the tests are collected; a parser error fails the tests that need the result.
 */
function parseOnce(path: string, entry: PublicCorpusEntry, expectFile: PublicCorpusConformanceOptions['expectFile']): () => ExpectedFile {
  let parsed: ExpectedFile | undefined;
  return () => {
    parsed ??= expectFile(new Uint8Array(readFileSync(path)), entry);
    return parsed;
  };
}

function countTurnsQuickly(expected: () => ExpectedFile): number {
  try {
    return expected().turns.length;
  } catch {
    // The parser threw: the "has at least one turn" test reports it.
    return 0;
  }
}

/** Read one snapshot with one cap and list every difference from the independent count. */
async function checkRead(
  reader: TranscriptReader,
  agent: AgentId,
  file: string,
  turn: ExpectedTurn,
  maxBytes: number,
  unreadable: PublicCorpusConformanceOptions['unreadable'],
  hint?: TurnHint,
): Promise<string[]> {
  const where = `cap ${maxBytes}${hint === undefined ? '' : ', hinted'}`;
  let timeline: TurnTimeline;
  try {
    timeline = await reader.readTurn({ transcriptPath: file, checkpointPrefix: DEFAULT_PREFIX, flushWaitMs: 0, maxBytes, ...(hint !== undefined ? { hint } : {}) });
  } catch (error) {
    return [`${where}: readTurn threw: ${error instanceof Error ? error.message : String(error)}`];
  }
  const violations = timelineViolations(timeline, { agent, maxBytes, fileBytes: turn.snapshot.length });
  if (violations.length > 0) return violations.map((v) => `${where}: invalid timeline: ${v}`);
  if (!timeline.hasData) {
    const codes = timeline.diagnostics.map((d) => d.code);
    const allowed = unreadable?.(turn, maxBytes);
    if (allowed !== undefined && codes.includes(allowed)) return [];
    return [codes.length > 0 ? `${where}: not read (${codes.join(', ')})` : `${where}: not read and no diagnostic says why`];
  }
  const windowStart = turn.snapshot.length - maxBytes;
  const truncated = turn.startOffset < windowStart;
  const problems: string[] = [];
  if (timeline.truncated !== truncated) problems.push(`${where}: truncated is ${String(timeline.truncated)}, expected ${String(truncated)}`);
  const mustHave = truncated ? turn.calls.filter((call) => call.offset >= windowStart) : turn.calls;
  problems.push(...compareCalls(where, timeline.calls, turn.calls, mustHave, truncated, turn.cwd));
  return problems;
}

/**
 * Compare the reader's calls with the expected ones. Untruncated: the same calls (ids and number), the
 * same shell exit statuses, the same edited paths. Truncated: every call whose line lies inside the
 * read window, no call from outside the turn, and no more calls than the turn has.
 */
function compareCalls(
  where: string,
  actual: readonly ToolCall[],
  all: readonly ExpectedCall[],
  mustHave: readonly ExpectedCall[],
  truncated: boolean,
  cwd: string | undefined,
): string[] {
  const problems: string[] = [];
  const byId = new Map(actual.map((call) => [call.id, call]));
  const expectedIds = new Set(all.flatMap((call) => (call.id === undefined ? [] : [call.id])));
  const missing = mustHave.filter((call) => call.id !== undefined && !byId.has(call.id)).map((call) => call.id);
  if (missing.length > 0) problems.push(`${where}: missing calls ${preview(missing)}`);
  // Calls the format gives no id (a Codex web search item) can only be matched by number.
  const idless = all.filter((call) => call.id === undefined).length;
  const extra = actual.filter((call) => !expectedIds.has(call.id)).map((call) => `${call.rawName}:${call.id}`);
  if (extra.length > idless) problems.push(`${where}: calls not in this turn ${preview(extra)}`);
  if (truncated) {
    if (actual.length > all.length) problems.push(`${where}: ${actual.length} calls, more than the turn's ${all.length}`);
    if (actual.length < mustHave.length) problems.push(`${where}: ${actual.length} calls, fewer than the ${mustHave.length} in the read window`);
  } else if (actual.length !== all.length) {
    problems.push(`${where}: ${actual.length} calls, expected ${all.length}`);
  }
  for (const call of mustHave) {
    if (call.id === undefined || call.shell === undefined) continue;
    const got = byId.get(call.id);
    if (!got) continue;
    if (got.kind !== 'shell') problems.push(`${where}: call ${call.id} is ${got.kind} (${got.rawName}), expected a shell command`);
    else if (got.exitCode !== call.shell.exitCode) problems.push(`${where}: call ${call.id} exit ${String(got.exitCode)}, expected ${String(call.shell.exitCode)}`);
    else if (call.shell.exitCode !== undefined && (got.outcome === 'success') !== (call.shell.exitCode === 0)) {
      problems.push(`${where}: call ${call.id} exited ${call.shell.exitCode} but its outcome is ${got.outcome}`);
    }
  }
  const relative = (path: string): string => (cwd !== undefined && path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path);
  const expectedEdits = new Set(mustHave.flatMap((call) => call.editedPaths.map(relative)));
  const actualEdits = new Set(
    actual.filter((call) => isFileMutation(call) && (!truncated || mustHave.some((m) => m.id === call.id))).flatMap((call) => call.paths.map(relative)),
  );
  const notEdited = [...expectedEdits].filter((path) => !actualEdits.has(path));
  const wronglyEdited = [...actualEdits].filter((path) => !expectedEdits.has(path));
  if (notEdited.length > 0) problems.push(`${where}: edited paths missing ${preview(notEdited)}`);
  if (wronglyEdited.length > 0) problems.push(`${where}: edited paths not edited by the turn ${preview(wronglyEdited)}`);
  return problems;
}

function preview(values: readonly (string | undefined)[]): string {
  const shown = values.slice(0, 4).map(String).join(', ');
  return values.length > 4 ? `${shown} (+${values.length - 4} more)` : shown;
}
