import {
  emptyTimeline,
  ownCheckpointRule,
  readTranscriptTurn,
  transcriptWording,
  withReadStats,
  type ReadTurnRequest,
  type TimelineDiagnostic,
  type TranscriptTurnFile,
  type TranscriptTurnReader,
  type TurnTimeline,
} from '@agent-checkpoint/core';
import { buildPiTimeline } from './build-pi-timeline.ts';
import { collectPiTurn } from './collect-pi-turn.ts';

/** Tuning knobs of the reader (tests shrink the chunk to cross chunk boundaries). */
export interface ReadPiTurnOptions {
  /** Size of each backwards read. Default: core's (64 KiB). */
  readonly chunkBytes?: number;
}

const READER: TranscriptTurnReader = { agent: 'pi', wording: transcriptWording('Pi session') };
const FOREIGN_NAMES = { claude: 'Claude Code', codex: 'Codex CLI', gemini: 'Gemini CLI' } as const;

/**
 * Read the current turn of a Pi session file. Never throws (core's prologue handles a missing,
 * non-regular, empty or unreadable path and anything thrown while reading). Pi appends each entry as
 * its message ends (`message_end`, before `turn_end`), so the file is complete when the hook runs:
 * `flushWaitMs` is ignored.
 */
export function readPiTurn(request: ReadTurnRequest, options: ReadPiTurnOptions = {}): TurnTimeline {
  return readTranscriptTurn(request, READER, (file) => readFile(request, file, options));
}

function readFile(request: ReadTurnRequest, file: TranscriptTurnFile, options: ReadPiTurnOptions): TurnTimeline {
  const path = file.path;
  const own = ownCheckpointRule(request);
  const collected = collectPiTurn(path, {
    ...file.bounds,
    own,
    ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
  });
  const { tail } = collected;
  const stopped: TimelineDiagnostic[] = tail.deadlineReached
    ? [{ level: 'warn', code: 'deadline', message: 'The hook deadline passed while reading; the timeline holds what was read.' }]
    : tail.aborted
      ? [{ level: 'info', code: 'aborted', message: 'Reading was aborted; the timeline holds what was read.' }]
      : [];
  if (collected.piEntries === 0) {
    const diagnostic = ((): TimelineDiagnostic => {
      if (collected.foreign !== undefined) return { level: 'warn', code: 'wrong-agent', message: `Not a Pi session: this is a ${FOREIGN_NAMES[collected.foreign]} transcript (${path}).` };
      if (tail.capped) return { level: 'warn', code: 'cap-reached', message: `No complete line within the read cap at the end of ${path}.` };
      if (tail.linesVisited === 0 && tail.corruptLines === 0) return { level: 'warn', code: 'empty-file', message: `The Pi session holds only blank lines: ${path}` };
      return { level: 'warn', code: 'unknown-format', message: `Not a Pi session (no session header or entry among the lines read): ${path}` };
    })();
    const aborted = stopped.length > 0 && diagnostic.code !== 'wrong-agent';
    return withReadStats({ ...emptyTimeline('pi'), diagnostics: aborted ? stopped : [diagnostic, ...stopped] }, tail.bytesRead, tail.fileSize);
  }
  const timeline = buildPiTimeline(collected, own, request.hint?.prompt);
  return withReadStats({ ...timeline, diagnostics: [...timeline.diagnostics, ...stopped] }, tail.bytesRead, tail.fileSize);
}
