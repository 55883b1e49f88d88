import { closeSync, constants, openSync, readSync } from 'node:fs';
import {
  DEFAULT_TRANSCRIPT_MAX_BYTES,
  emptyTimeline,
  isDeliveredCheckpoint,
  mergeCallsByTime,
  ownCheckpointRule,
  readJsonlTail,
  readTranscriptTurn,
  type ReadTurnRequest,
  type TimelineDiagnostic,
  type TranscriptTurnReader,
  type TurnTimeline,
} from '@agent-checkpoint/core';
import { buildToolCalls } from './build-tool-calls.ts';
import type { CellDiagnostic } from './code-mode-cell-calls.ts';
import { findCodexSubagentRefs, readCodexSubagents } from './read-codex-subagents.ts';
import type { CodexRecord, UserTextRecord } from './codex-record.ts';
import { collectTokenUsage } from './collect-token-usage.ts';
import { countCheckpoints, groupCodexTurns, hookPromptsOf, isTurnActivity, selectTurnSpan, userTextsOf, type CodexTurn } from './group-codex-turns.ts';
import { isCodexRolloutLine, parseCodexLine } from './parse-codex-line.ts';
import { skipCodexLine } from './skip-codex-line.ts';
import { TurnBoundaryTracker } from './turn-boundary-tracker.ts';

const PROMPT_LIMIT = 2000;
/** How the shared prologue names a rollout. */
const READER: TranscriptTurnReader = {
  agent: 'codex',
  wording: {
    noPath: 'No transcript path was given.',
    missing: (path) => `${path} does not exist.`,
    notAFile: (path) => `${path} is not a regular file.`,
    empty: (path) => `${path} is empty.`,
    unreadable: (path, reason) => `Cannot read ${path}: ${reason}`,
  },
};

/** Tuning knobs of the reader; tests and benchmarks use them, users normally do not. */
export interface ReadCodexTurnOptions {
  /** Byte cap used when the request has none. Default {@link DEFAULT_TRANSCRIPT_MAX_BYTES}. */
  readonly maxBytes?: number;
  /** Size of each backwards read. Default 64 KiB. */
  readonly chunkBytes?: number;
}

/**
 * Read the turn that just ended from a Codex rollout. Never throws: every failure becomes
 * `hasData: false` with a diagnostic.
 */
export function readCodexTurn(request: ReadTurnRequest, options: ReadCodexTurnOptions = {}): TurnTimeline {
  return readTranscriptTurn(request, READER, ({ path }) => readFile(request, path, options));
}

function readFile(request: ReadTurnRequest, path: string, options: ReadCodexTurnOptions): TurnTimeline {
  // Not the prologue's cap: a request's cap that is no positive number falls back to the options'.
  const maxBytes = byteCap(request.maxBytes) ?? byteCap(options.maxBytes) ?? DEFAULT_TRANSCRIPT_MAX_BYTES;
  const hint = typeof request.hint?.turnId === 'string' ? request.hint.turnId.trim() || undefined : undefined;
  const prefix = typeof request.checkpointPrefix === 'string' ? request.checkpointPrefix : '';
  const own = ownCheckpointRule({
    checkpointPrefix: prefix,
    ...(Array.isArray(request.deliveredDigests) ? { deliveredDigests: request.deliveredDigests } : {}),
    ...(request.checkpointMessages !== undefined ? { checkpointMessages: request.checkpointMessages } : {}),
  });
  const tracker = new TurnBoundaryTracker(hint, prefix);
  const lines: CodexRecord[][] = [];
  let codexLines = 0;
  let foreignLines = 0;
  const tail = readJsonlTail(path, {
    maxBytes,
    ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(typeof request.deadlineAt === 'number' ? { deadlineAt: request.deadlineAt } : {}),
    skipLine: skipCodexLine,
    visit: (entry, info) => {
      if (!isCodexRolloutLine(entry)) {
        foreignLines += 1;
        return 'continue';
      }
      codexLines += 1;
      const records = parseCodexLine(entry, info.offset).map((record) =>
        record.type === 'user-text' ? { ...record, ours: isDeliveredCheckpoint(record.text, own) } : record,
      );
      lines.push(records);
      return tracker.visit(records) ? 'stop' : 'continue';
    },
  });

  const readStats = { bytesRead: tail.bytesRead, fileBytes: tail.fileSize };
  const diagnostics: TimelineDiagnostic[] = [];
  if (tail.corruptLines > 0) {
    diagnostics.push({ level: 'info', code: 'corrupt-line', message: `Skipped ${tail.corruptLines} line(s) that are not valid JSON.` });
  }
  if (tail.deadlineReached) {
    diagnostics.push({ level: 'warn', code: 'deadline', message: `The hook's deadline passed after ${tail.bytesRead} bytes of the rollout; the timeline may be incomplete.` });
  } else if (tail.aborted) {
    diagnostics.push({ level: 'warn', code: 'aborted', message: 'Reading was aborted; the timeline may be incomplete.' });
  }

  if (codexLines + tail.skippedLines === 0) {
    // The shared codes (core's SHARED_DIAGNOSTIC_CODES): another agent's lines, an abort (already
    // said), nothing but blank lines, a single line larger than the cap, or content of no format.
    const diagnostic: TimelineDiagnostic | undefined =
      foreignLines > 0
        ? { level: 'warn', code: 'wrong-agent', message: `${path} is JSONL but has no Codex rollout lines (another agent's transcript?).` }
        : tail.aborted
          ? undefined
          : tail.corruptLines === 0 && tail.reachedStart
            ? { level: 'warn', code: 'empty-file', message: `${path} holds only blank lines.` }
            : tail.corruptLines === 0 && tail.capped
              ? { level: 'warn', code: 'cap-reached', message: `No complete line in the last ${maxBytes} bytes of ${path} (a single line larger than the read cap).` }
              : isTypeScriptCliSession(path)
                ? {
                    level: 'warn',
                    code: 'unsupported-format',
                    message: `${path} is a session of the TypeScript Codex CLI (0.1.x: one JSON document with "session" and "items"), which this reader does not read.`,
                  }
                : { level: 'warn', code: 'unknown-format', message: `${path} has no readable JSON lines in its last ${tail.bytesRead} bytes: not a Codex rollout.` };
    return { ...emptyTimeline('codex'), readStats, diagnostics: diagnostic ? [...diagnostics, diagnostic] : diagnostics };
  }

  // Lines were collected newest first; records within a line keep their order.
  const records = lines.reverse().flat();
  // `reachedStart` is about bytes: a file smaller than one chunk is read whole even when the visitor
  // stopped early. Every line was seen only when the read reached the start without stopping.
  const visitedAll = tail.reachedStart && !tail.stopped;
  const turns = groupCodexTurns(records, prefix, visitedAll);
  const span = selectTurnSpan(turns, prefix, hint);
  if (!span || !hasTurnContent(records)) {
    return {
      ...emptyTimeline('codex'),
      readStats,
      diagnostics: [
        ...diagnostics,
        ...(tail.aborted
          ? []
          : [
              tail.capped
                ? { level: 'warn' as const, code: 'cap-reached', message: `No recognisable turn in the last ${maxBytes} bytes of the rollout (the read cap).` }
                : { level: 'warn' as const, code: 'no-turn', message: 'The rollout has no recognisable turn in the read window.' },
            ]),
      ],
    };
  }
  if (span.hintMissed) {
    diagnostics.push({
      level: 'warn',
      code: 'turn-not-found',
      message: `Turn ${hint} is not in the last ${tail.bytesRead} bytes of the rollout; using the last user turn instead.`,
    });
  }

  const turnOf = new Map<CodexRecord, string>();
  for (const turn of turns) for (const record of turn.records) turnOf.set(record, turn.key);
  const cwd = latestCwd(records);
  const spanKeys = new Set(span.turns.map((turn) => turn.key));
  const cellDiagnostics: CellDiagnostic[] = [];
  const calls = buildToolCalls(records, (record) => turnOf.get(record) ?? '#window-start', cwd, { diagnostics: cellDiagnostics, turns: spanKeys })
    .filter((placed) => spanKeys.has(placed.turnKey))
    .map((placed) => placed.call);
  for (const { turnKey, diagnostic } of cellDiagnostics) if (spanKeys.has(turnKey)) diagnostics.push(diagnostic);

  // Work of the subagents the turn started or tasked (0.169 multi-agent), from their own rollouts.
  const spanRecords = span.turns.flatMap((turn) => turn.records);
  const found = findCodexSubagentRefs(spanRecords);
  diagnostics.push(...found.diagnostics);
  const rootTurnIds = new Set(span.turns.flatMap((turn) => [turn.key, ...(turn.start?.rootTurnId !== undefined ? [turn.start.rootTurnId] : [])]));
  const subagents = readCodexSubagents({
    transcriptPath: path,
    refs: found.refs,
    rootTurnIds,
    checkpointPrefix: prefix,
    maxBytes: Math.max(0, maxBytes - tail.bytesRead),
    knownCallIds: new Set(calls.map((call) => call.id)),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(typeof request.deadlineAt === 'number' ? { deadlineAt: request.deadlineAt } : {}),
  });
  diagnostics.push(...subagents.diagnostics);
  // `readStats` stays the main rollout's (the subagents' reads share its cap, not its file size).
  const allCalls = mergeCallsByTime(calls, subagents.calls);

  const first = span.turns[0];
  // Only the byte cap (or an abort) can cut a turn: a read that stopped at a `task_started` holds every
  // later line, even when the span's first turn lost its own start line to corruption.
  const truncated = ((tail.capped || tail.aborted) && first !== undefined && !first.openedInWindow) || subagents.truncated;
  // An abort or the deadline has said so already.
  if (truncated && tail.capped && !subagents.truncated) {
    diagnostics.push({
      level: 'warn',
      code: 'cap-reached',
      message: `The turn started before the last ${maxBytes} bytes of the rollout; only its tail was read.`,
    });
  }

  const genuine = span.genuine;
  const prompt = genuine ? openingPrompt(genuine, prefix) : undefined;
  const turnId = realTurnId(genuine) ?? realTurnId(span.turns.at(-1));
  const startedAt = genuine?.start?.timestamp ?? genuine?.start?.startedAt ?? prompt?.timestamp;
  const usage = collectTokenUsage(records);
  const lastUserMessage = findLastUserMessage(turns, prefix);
  const lastAssistantMessage = findLastAssistantMessage(span.turns);
  const cliVersion = records.find((record) => record.type === 'session-meta' && record.cliVersion !== undefined);

  return {
    agent: 'codex',
    hasData: true,
    ...(turnId !== undefined ? { turnId } : {}),
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(prompt !== undefined ? { prompt: prompt.text.slice(0, PROMPT_LIMIT) } : {}),
    calls: allCalls,
    checkpointsDelivered: span.turns.reduce((sum, turn) => sum + countCheckpoints(turn, prefix), 0),
    ...(lastUserMessage !== undefined ? { lastUserMessage } : {}),
    ...(lastAssistantMessage !== undefined ? { lastAssistantMessage } : {}),
    ...(usage.latest ? { tokenUsage: usage.latest } : {}),
    ...(usage.history.length > 0 ? { usageHistory: usage.history } : {}),
    truncated,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(cliVersion?.type === 'session-meta' && cliVersion.cliVersion !== undefined ? { cliVersion: cliVersion.cliVersion } : {}),
    readStats,
    diagnostics,
  };
}

/**
 * True when the file starts like a session of the TypeScript Codex CLI (0.1.x, before the Rust
 * rewrite): `rollout-*.json`, one pretty-printed document `{"session": {…}, "items": […]}`. Only its
 * first bytes are read.
 */
function isTypeScriptCliSession(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const head = Buffer.alloc(256);
    const length = readSync(fd, head, 0, head.length, 0);
    return /^\s*\{\s*"session"\s*:\s*\{/.test(head.subarray(0, length).toString('utf8'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A usable byte cap: a positive finite number, else undefined (the default applies). */
function byteCap(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** True when the window holds anything turn-like: a turn start, a user message or a tool record. */
function hasTurnContent(records: readonly CodexRecord[]): boolean {
  return records.some((record) =>
    ['turn-start', 'user-text', 'hook-prompt', 'call', 'call-output', 'command-result', 'patch-result', 'item-tool'].includes(record.type),
  );
}

/**
 * The turn's prompt: its first genuine message. When the byte cap cut the turn's start off, that
 * message may be a steer typed while the turn ran: it is then the prompt only when the window shows
 * the turn opening before it and nothing done in between. Otherwise the turn has no prompt and no
 * start time (never a steer's).
 */
function openingPrompt(turn: CodexTurn, prefix: string): UserTextRecord | undefined {
  const first = userTextsOf(turn, prefix).find((text) => text.kind === 'genuine')?.record;
  if (!first || turn.openedInWindow) return first;
  // The turn's `turn_context` (written as the turn opens) must precede it in the window, and nothing
  // the model did: a token count is written after each model response.
  const before = turn.records.filter((record) => record.offset < first.offset);
  const opened = before.some((record) => record.type === 'turn-context');
  const answered = before.some((record) => isTurnActivity(record) || record.type === 'usage');
  return opened && !answered ? first : undefined;
}

function realTurnId(turn: CodexTurn | undefined): string | undefined {
  return turn && !turn.key.startsWith('#') ? turn.key : undefined;
}

/** Latest cwd in the window: `turn_context` / thread settings, else `session_meta`. */
function latestCwd(records: readonly CodexRecord[]): string | undefined {
  let fromMeta: string | undefined;
  let fromContext: string | undefined;
  for (const record of records) {
    if (record.type === 'turn-context' && record.cwd !== undefined) fromContext = record.cwd;
    if (record.type === 'session-meta' && record.cwd !== undefined) fromMeta = record.cwd;
  }
  return fromContext ?? fromMeta;
}

/**
 * The last user-role text of the window, whatever its origin: a prompt, our typed checkpoint, or a
 * Stop-hook prompt (its raw text). Harness context (AGENTS.md, `<environment_context>`,
 * `<turn_aborted>`) is not a message anyone sent and is skipped.
 */
function findLastUserMessage(turns: readonly CodexTurn[], prefix: string): string | undefined {
  let last: { offset: number; text: string } | undefined;
  for (const turn of turns) {
    for (const { record, kind } of userTextsOf(turn, prefix)) {
      if (kind !== 'context' && (!last || record.offset >= last.offset)) last = { offset: record.offset, text: record.text };
    }
    for (const record of hookPromptsOf(turn)) {
      if (!last || record.offset >= last.offset) last = { offset: record.offset, text: record.texts.join('\n') };
    }
  }
  return last?.text;
}

function findLastAssistantMessage(turns: readonly CodexTurn[]): string | undefined {
  let last: { offset: number; text: string } | undefined;
  for (const turn of turns) {
    for (const record of turn.records) {
      const text = record.type === 'assistant-text' ? record.text : record.type === 'turn-end' ? record.lastAgentMessage : undefined;
      if (text !== undefined && text !== '' && (!last || record.offset >= last.offset)) last = { offset: record.offset, text };
    }
  }
  return last?.text;
}
