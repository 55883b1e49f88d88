import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  emptyTimeline,
  mergeCallsByTime,
  startTranscriptTurn,
  transcriptMaxBytes,
  transcriptReadFailure,
  type ReadTurnRequest,
  type TimelineDiagnostic,
  type TranscriptTurnReader,
  type TurnTimeline,
} from '@agent-checkpoint/core';
import { buildClaudeTimeline, type BuiltClaudeTimeline } from './build-claude-timeline.ts';
import type { ExcerptBudget } from './build-claude-tool-call.ts';
import { collectClaudeTurn } from './collect-claude-turn.ts';
import { readClaudeSubagents } from './read-claude-subagents.ts';

/** How the shared prologue names a Claude transcript. */
const READER: TranscriptTurnReader = {
  agent: 'claude',
  wording: {
    noPath: 'No transcript path was given.',
    missing: (path) => `The transcript ${path} does not exist.`,
    notAFile: (path) => `The transcript path ${path} is not a regular file.`,
    empty: (path) => `The transcript ${path} is empty.`,
    unreadable: (path, reason) => `The transcript ${path} cannot be read: ${reason}`,
  },
};

/** Default longest wait for Claude's lagging final transcript write (claude-cli.md §2.4). */
export const DEFAULT_FLUSH_WAIT_MS = 1500;
/** Default re-read interval while waiting (Claude flushes its write queue every 100 ms). */
export const DEFAULT_FLUSH_POLL_MS = 50;

/** Tuning knobs of the Claude reader; every field is optional. */
export interface ClaudeReaderOptions {
  /** Re-read interval while waiting for a lagging write. Default {@link DEFAULT_FLUSH_POLL_MS}. */
  readonly pollIntervalMs?: number;
  /** Default for {@link ReadTurnRequest.flushWaitMs} when a request leaves it unset. Default 1500 ms. */
  readonly flushWaitMs?: number;
  /** Output excerpt budget in characters (head and tail), defaults from core. */
  readonly excerpt?: ExcerptBudget;
  /** Size of each backwards read in bytes (default 64 KiB); tests shrink it to exercise line splits. */
  readonly chunkBytes?: number;
  /**
   * Read the turn's subagent transcripts (`<session>/subagents/agent-<id>.jsonl`) and add their calls,
   * marked with {@link ToolCall.origin}. Default true; false gives the main agent's calls only.
   */
  readonly subagents?: boolean;
}

/**
 * Read the current turn of a Claude Code transcript. Never throws or rejects.
 *
 * When the hook passed `last_assistant_message` and the file does not end with that text yet, the
 * final assistant entry is still in Claude's 100 ms write queue: the file is re-read (only when its
 * size changed) every `pollIntervalMs` until it matches, `flushWaitMs` passes or `signal` aborts.
 * What is there is returned either way, with a `flush-timeout` diagnostic if the entry never came.
 */
export async function readClaudeTurn(request: ReadTurnRequest, options: ClaudeReaderOptions = {}): Promise<TurnTimeline> {
  try {
    const built = await readWithFlushWait(request, options);
    return options.subagents === false ? built.timeline : withSubagentCalls(built, request, options);
  } catch (error) {
    // Defensive: every known failure is handled below; an unexpected one must still not escape.
    return emptyTimeline('claude', { level: 'warn', code: 'internal-error', message: `Reading the transcript failed: ${describe(error)}` });
  }
}

/**
 * Add the calls the turn's subagents recorded in their own transcripts, merged by time and marked
 * with their origin. The subagent files share one byte cap, the request's `maxBytes`; a cut-short
 * subagent read makes the timeline `truncated` (earlier subagent calls may be missing).
 */
function withSubagentCalls(built: BuiltClaudeTimeline, request: ReadTurnRequest, options: ClaudeReaderOptions): TurnTimeline {
  const { timeline } = built;
  if (!timeline.hasData || built.subagents.length === 0) return timeline;
  const read = readClaudeSubagents({
    transcriptPath: request.transcriptPath,
    refs: built.subagents,
    maxBytes: transcriptMaxBytes(request.maxBytes),
    knownCallIds: new Set(timeline.calls.map((call) => call.id)),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(typeof request.deadlineAt === 'number' ? { deadlineAt: request.deadlineAt } : {}),
    ...(options.excerpt ? { excerpt: options.excerpt } : {}),
  });
  return {
    ...timeline,
    calls: mergeCallsByTime(timeline.calls, read.calls),
    truncated: timeline.truncated || read.truncated,
    diagnostics: [...timeline.diagnostics, ...read.diagnostics],
  };
}

async function readWithFlushWait(request: ReadTurnRequest, options: ClaudeReaderOptions): Promise<BuiltClaudeTimeline> {
  const first = readOnce(request, options);
  const expected = request.hint?.lastAssistantMessage;
  const waitMs = sanitizeMs(request.flushWaitMs ?? options.flushWaitMs, DEFAULT_FLUSH_WAIT_MS);
  if (waitMs === 0 || expected === undefined || expected.trim().length === 0) return first.built;
  if (!first.built.timeline.hasData || matchesFinalText(first.built.fileFinalAssistantTexts, expected)) {
    return first.built;
  }

  const pollMs = Math.max(1, sanitizeMs(options.pollIntervalMs, DEFAULT_FLUSH_POLL_MS));
  const startedAt = Date.now();
  // The hook's deadline bounds the wait too: re-reading after it would only be cut short.
  const deadline = Math.min(startedAt + waitMs, typeof request.deadlineAt === 'number' && !Number.isNaN(request.deadlineAt) ? request.deadlineAt : Number.POSITIVE_INFINITY);
  let latest = first;
  while (!request.signal?.aborted) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    try {
      await sleep(Math.min(pollMs, remaining), undefined, request.signal ? { signal: request.signal } : {});
    } catch {
      break; // aborted
    }
    const size = fileSize(request.transcriptPath);
    if (size === undefined || size === latest.fileBytes) continue;
    latest = readOnce(request, options);
    if (!latest.built.timeline.hasData) continue;
    if (matchesFinalText(latest.built.fileFinalAssistantTexts, expected)) {
      return withDiagnostic(latest.built, {
        level: 'info',
        code: 'flush-waited',
        message: `Waited ${Date.now() - startedAt} ms for Claude to write the final assistant entry.`,
      });
    }
  }
  const aborted = request.signal?.aborted === true;
  return withDiagnostic(latest.built, {
    level: 'warn',
    code: aborted ? 'flush-wait-aborted' : 'flush-timeout',
    message: aborted
      ? 'Aborted while waiting for Claude to write the final assistant entry: the newest entries of the turn may be missing.'
      : `The final assistant entry was not in the transcript after ${waitMs} ms: the newest entries of the turn may be missing.`,
  });
}

interface ReadAttempt {
  readonly built: BuiltClaudeTimeline;
  readonly fileBytes: number | undefined;
}

function readOnce(request: ReadTurnRequest, options: ClaudeReaderOptions): ReadAttempt {
  const noData = (timeline: TurnTimeline): ReadAttempt => ({ built: { timeline, fileFinalAssistantTexts: [], subagents: [] }, fileBytes: undefined });
  const start = startTranscriptTurn(request, READER);
  if (start.kind === 'done') return noData(start.timeline);
  const { path, maxBytes, bounds } = start.file;
  try {
    const collected = collectClaudeTurn(path, {
      ...bounds,
      checkpointPrefix: request.checkpointPrefix,
      ...(request.hint?.turnId ? { turnId: request.hint.turnId } : {}),
      ...(Array.isArray(request.deliveredDigests) ? { deliveredDigests: request.deliveredDigests } : {}),
      ...(request.checkpointMessages !== undefined ? { checkpointMessages: request.checkpointMessages } : {}),
      ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
    });
    const built = buildClaudeTimeline({
      collected,
      checkpointPrefix: request.checkpointPrefix,
      maxBytes,
      ...(request.hint ? { hint: request.hint } : {}),
      ...(options.excerpt ? { excerpt: options.excerpt } : {}),
    });
    return { built, fileBytes: collected.tail.fileSize };
  } catch (error) {
    return noData(transcriptReadFailure(READER, path, error));
  }
}

/**
 * Does the file end with the hook's `last_assistant_message`? `fileTexts` are the forms the file's
 * final text can take (last text block; whole response). Whitespace is normalised, nothing else:
 * a looser match (prefix, suffix) could stop the wait on an older answer.
 */
export function matchesFinalText(fileTexts: readonly string[], expected: string): boolean {
  const hint = normalize(expected);
  if (hint.length === 0) return false;
  return fileTexts.some((text) => normalize(text) === hint);
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function withDiagnostic(built: BuiltClaudeTimeline, diagnostic: TimelineDiagnostic): BuiltClaudeTimeline {
  return { ...built, timeline: { ...built.timeline, diagnostics: [...built.timeline.diagnostics, diagnostic] } };
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

function sanitizeMs(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
