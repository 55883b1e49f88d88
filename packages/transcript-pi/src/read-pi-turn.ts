import { statSync } from 'node:fs';
import { DEFAULT_TRANSCRIPT_MAX_BYTES, emptyTimeline, ownCheckpointRule, type ReadTurnRequest, type TimelineDiagnostic, type TurnTimeline } from '@agent-checkpoint/core';
import { buildPiTimeline } from './build-pi-timeline.ts';
import { collectPiTurn } from './collect-pi-turn.ts';

/** Tuning knobs of the reader (tests shrink the chunk to cross chunk boundaries). */
export interface ReadPiTurnOptions {
  /** Size of each backwards read. Default: core's (64 KiB). */
  readonly chunkBytes?: number;
}

const FOREIGN_NAMES = { claude: 'Claude Code', codex: 'Codex CLI', gemini: 'Gemini CLI' } as const;

/**
 * Read the current turn of a Pi session file. Never throws. Pi appends each entry as its message
 * ends (`message_end`, before `turn_end`), so the file is complete when the hook runs:
 * `flushWaitMs` is ignored.
 */
export function readPiTurn(request: ReadTurnRequest, options: ReadPiTurnOptions = {}): TurnTimeline {
  try {
    return readUnsafe(request, options);
  } catch (error) {
    return emptyTimeline('pi', { level: 'warn', code: 'read-failed', message: `Could not read the Pi session ${String(request.transcriptPath)}: ${describe(error)}` });
  }
}

function readUnsafe(request: ReadTurnRequest, options: ReadPiTurnOptions): TurnTimeline {
  const path = request.transcriptPath;
  if (typeof path !== 'string' || path.length === 0) return emptyTimeline('pi', { level: 'warn', code: 'missing-file', message: 'No session path was given.' });
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return emptyTimeline('pi', { level: 'warn', code: 'not-a-file', message: `The Pi session path is not a regular file: ${path}` });
    size = stats.size;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return emptyTimeline('pi', {
      level: 'warn',
      code: missing ? 'missing-file' : 'unreadable-file',
      message: missing ? `The Pi session does not exist: ${path}` : `Cannot read the Pi session ${path}: ${describe(error)}`,
    });
  }
  if (size === 0) return withStats(emptyTimeline('pi', { level: 'warn', code: 'empty-file', message: `The Pi session is empty: ${path}` }), 0, 0);
  const own = ownCheckpointRule(request);
  const collected = collectPiTurn(path, {
    maxBytes: normalizeMaxBytes(request.maxBytes),
    own,
    ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(typeof request.deadlineAt === 'number' && !Number.isNaN(request.deadlineAt) ? { deadlineAt: request.deadlineAt } : {}),
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
    return withStats({ ...emptyTimeline('pi'), diagnostics: aborted ? stopped : [diagnostic, ...stopped] }, tail.bytesRead, tail.fileSize);
  }
  const timeline = buildPiTimeline(collected, own, request.hint?.prompt);
  return withStats({ ...timeline, diagnostics: [...timeline.diagnostics, ...stopped] }, tail.bytesRead, tail.fileSize);
}

function withStats(timeline: TurnTimeline, bytesRead: number, fileBytes: number): TurnTimeline {
  return { ...timeline, readStats: { bytesRead, fileBytes } };
}

function normalizeMaxBytes(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : DEFAULT_TRANSCRIPT_MAX_BYTES;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
