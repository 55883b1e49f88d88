import type { TimelineDiagnostic } from '../timeline/turn-timeline.ts';
import type { JsonlTailResult } from './read-jsonl-tail.ts';

/**
 * How a reader says that the lines it read hold none of its format's records
 * ({@link noRecordsDiagnostic}); the codes are the shared ones.
 */
export interface NoRecordsWording {
  /** `cap-reached`: not one complete line in the `bytes` read (a single line larger than the cap). */
  readonly noCompleteLine: (bytes: number) => string;
  /** `empty-file`: nothing but blank lines. */
  readonly blank: (path: string) => string;
  /** `wrong-agent`: lines another agent writes. */
  readonly foreign: (path: string) => string;
  /** `unknown-format`: lines of no known format, or none that parse. */
  readonly unknown: (path: string) => string;
}

/** The warning of a read cut short: by the caller's signal, or by the hook's deadline while parsing. */
export function readCutShortDiagnostic(deadlineReached: boolean): TimelineDiagnostic {
  return deadlineReached
    ? { level: 'warn', code: 'deadline', message: "The hook's deadline passed while reading; the timeline may be incomplete." }
    : { level: 'warn', code: 'aborted', message: 'Reading was aborted; the timeline may be incomplete.' };
}

/**
 * What a tail read that found the reader's records reports about itself: the lines skipped as
 * invalid JSON (`corrupt-line`, info: the last line may still be being written) and a read cut short
 * ({@link readCutShortDiagnostic}).
 */
export function tailReadDiagnostics(tail: JsonlTailResult): TimelineDiagnostic[] {
  const diagnostics: TimelineDiagnostic[] = [];
  if (tail.corruptLines > 0) {
    diagnostics.push({ level: 'info', code: 'corrupt-line', message: `Skipped ${tail.corruptLines} line(s) that were not valid JSON (a final line may still be being written).` });
  }
  if (tail.aborted) diagnostics.push(readCutShortDiagnostic(tail.deadlineReached));
  return diagnostics;
}

/**
 * Why a tail read of `path` found none of the reader's records, first cause first: the read was cut
 * short; not one complete line within the cap; only blank lines; `foreignLines` lines of another
 * agent; else an unknown format.
 */
export function noRecordsDiagnostic(tail: JsonlTailResult, foreignLines: number, path: string, wording: NoRecordsWording): TimelineDiagnostic {
  if (tail.aborted) return readCutShortDiagnostic(tail.deadlineReached);
  if (tail.linesVisited === 0 && tail.capped) return { level: 'warn', code: 'cap-reached', message: wording.noCompleteLine(tail.bytesRead) };
  if (tail.linesVisited === 0 && tail.corruptLines === 0) return { level: 'warn', code: 'empty-file', message: wording.blank(path) };
  if (foreignLines > 0) return { level: 'warn', code: 'wrong-agent', message: wording.foreign(path) };
  return { level: 'warn', code: 'unknown-format', message: wording.unknown(path) };
}
