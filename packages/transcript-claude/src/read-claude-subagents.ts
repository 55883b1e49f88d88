import { lstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readJsonlTail, sortCallsByTime, type TimelineDiagnostic, type ToolCall, type ToolCallOrigin } from '@agent-checkpoint/core';
import { buildClaudeToolCall, type ExcerptBudget } from './build-claude-tool-call.ts';
import { parseClaudeLine, SUBAGENT_ID_PATTERN, type ClaudeEntry, type ClaudeToolResult, type ClaudeToolUse } from './parse-claude-entry.ts';
import { skipClaudeSubagentLine } from './skip-claude-bookkeeping-line.ts';

/** Most subagent transcripts read for one turn (nested subagents included). */
export const MAX_SUBAGENTS_PER_TURN = 16;

/** Tools whose result names the subagent they started or resumed (`toolUseResult.agentId`). */
const SPAWNING_TOOLS: ReadonlySet<string> = new Set(['Agent', 'Task']);
/** The tool that sends a running or finished subagent another message (`input.to` is its id). */
const CONTINUING_TOOL = 'SendMessage';
const TASK_ID = /<task-id>([A-Za-z0-9_-]{1,128})<\/task-id>/;

/**
 * A subagent whose work belongs to the turn, and from when.
 *
 * - spawned by an Agent/Task call of the turn: from that call on (a background agent still running
 *   at Stop counts with its calls so far);
 * - resumed by a SendMessage call of the turn: from that call on (its earlier work was an earlier
 *   turn's);
 * - the turn is the completion notice of a background agent (`<task-notification>`): its whole
 *   transcript, within the byte cap (what it did after the spawning turn's Stop is only seen here);
 * - spawned by one of those subagents: from its spawning call on.
 */
export interface ClaudeSubagentRef {
  readonly agentId: string;
  readonly agentType?: string;
  /** The call (main agent's, or a parent subagent's) that spawned or resumed it. */
  readonly parentCallId?: string;
  /** ISO time before which the subagent's calls are not the turn's; undefined = all of them. */
  readonly since?: string;
}

/** A tool call as the turn recorded it, before it is built (the `tool_use` block and its time). */
export interface TimedClaudeToolUse {
  readonly use: ClaudeToolUse;
  readonly timestamp: string | undefined;
}

/**
 * The subagents a turn spawned, resumed or was notified about, in call order, each once. `taskNotice`
 * is the text of the prompt that opened the turn when it is a background-task notification.
 */
export function findClaudeSubagentRefs(
  uses: readonly TimedClaudeToolUse[],
  results: ReadonlyMap<string, ClaudeToolResult>,
  taskNotice: string | undefined,
): ClaudeSubagentRef[] {
  const refs: ClaudeSubagentRef[] = [];
  const seen = new Set<string>();
  const add = (ref: ClaudeSubagentRef): void => {
    if (seen.has(ref.agentId)) return;
    seen.add(ref.agentId);
    refs.push(ref);
  };
  const notified = taskNotice === undefined ? undefined : TASK_ID.exec(taskNotice)?.[1];
  if (notified !== undefined) add({ agentId: notified });
  for (const { use, timestamp } of uses) {
    const since = timestamp === undefined ? {} : { since: timestamp };
    if (SPAWNING_TOOLS.has(use.name)) {
      const result = results.get(use.id);
      if (result?.agentId === undefined) continue;
      const declaredType = use.input['subagent_type'];
      const agentType = result.agentType ?? (typeof declaredType === 'string' && declaredType.length > 0 ? declaredType : undefined);
      add({ agentId: result.agentId, parentCallId: use.id, ...since, ...(agentType === undefined ? {} : { agentType }) });
    } else if (use.name === CONTINUING_TOOL) {
      const to = use.input['to'];
      if (typeof to === 'string' && SUBAGENT_ID_PATTERN.test(to)) add({ agentId: to, parentCallId: use.id, ...since });
    }
  }
  return refs;
}

/** Arguments of {@link readClaudeSubagents}. */
export interface ReadClaudeSubagentsInput {
  /** The main transcript; subagents live in `<dir>/<session>/subagents/agent-<id>.jsonl` next to it. */
  readonly transcriptPath: string;
  readonly refs: readonly ClaudeSubagentRef[];
  /** Total byte cap across all subagent files of the turn. */
  readonly maxBytes: number;
  /** Ids already on the timeline: a subagent call never duplicates one. */
  readonly knownCallIds: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  /** The hook's deadline (`ReadTurnRequest.deadlineAt`): parsing stops there like an abort. */
  readonly deadlineAt?: number;
  readonly excerpt?: ExcerptBudget;
  /** Default {@link MAX_SUBAGENTS_PER_TURN}. */
  readonly maxAgents?: number;
}

/** What the subagent transcripts added to the turn. */
export interface ClaudeSubagentCalls {
  /** The subagents' calls, each marked with its origin, in time order. */
  readonly calls: readonly ToolCall[];
  readonly diagnostics: readonly TimelineDiagnostic[];
  /** True when a cap or the signal cut a subagent's part of the turn short. */
  readonly truncated: boolean;
  readonly bytesRead: number;
  /** Subagent transcripts actually read. */
  readonly agentsRead: number;
}

/**
 * Read the turn's part of each subagent transcript, backwards from its end, never more than
 * `maxBytes` in total, and build its calls. Never throws: a missing, corrupt, symlinked or otherwise
 * refused file (the names come from the transcript, untrusted input) gives a diagnostic and is
 * skipped. Subagents spawned by a subagent are followed, up to `maxAgents` files in all.
 */
export function readClaudeSubagents(input: ReadClaudeSubagentsInput): ClaudeSubagentCalls {
  const diagnostics: TimelineDiagnostic[] = [];
  const calls: ToolCall[] = [];
  const knownIds = new Set(input.knownCallIds);
  const maxAgents = input.maxAgents ?? MAX_SUBAGENTS_PER_TURN;
  const queue = [...input.refs];
  const queued = new Set(queue.map((ref) => ref.agentId));
  let bytesRead = 0;
  let agentsRead = 0;
  let truncated = false;

  const dir = subagentsDir(input.transcriptPath);
  if (queue.length === 0) return { calls, diagnostics, truncated, bytesRead, agentsRead };
  if (dir.kind === 'refused') {
    diagnostics.push({ level: 'warn', code: 'subagent-refused', message: dir.reason });
    return { calls, diagnostics, truncated, bytesRead, agentsRead };
  }

  while (queue.length > 0) {
    const ref = queue.shift() as ClaudeSubagentRef;
    if (input.signal?.aborted || (input.deadlineAt !== undefined && Date.now() >= input.deadlineAt)) {
      truncated = true;
      diagnostics.push({ level: 'warn', code: 'aborted', message: `Reading was aborted before subagent ${ref.agentId}'s transcript: its calls are missing.` });
      break;
    }
    if (agentsRead >= maxAgents) {
      truncated = true;
      diagnostics.push({ level: 'warn', code: 'subagent-limit', message: `Only the first ${maxAgents} subagent transcripts of the turn were read; ${queue.length + 1} more were skipped.` });
      break;
    }
    const remaining = input.maxBytes - bytesRead;
    if (remaining <= 0) {
      truncated = true;
      diagnostics.push({ level: 'warn', code: 'cap-reached', message: `The ${input.maxBytes}-byte cap for subagent transcripts was used up before subagent ${ref.agentId}: its calls are missing.` });
      break;
    }
    if (dir.kind === 'absent') {
      diagnostics.push({ level: 'info', code: 'subagent-missing', message: `No subagent transcript folder ${dir.path}: the calls of subagent ${ref.agentId} are missing.` });
      continue;
    }
    const read = readOneSubagent(dir.path, ref, remaining, input);
    agentsRead += read.opened ? 1 : 0;
    bytesRead += read.bytesRead;
    truncated ||= read.truncated;
    diagnostics.push(...read.diagnostics);
    for (const call of read.calls) {
      if (knownIds.has(call.id)) continue;
      knownIds.add(call.id);
      calls.push(call);
    }
    for (const child of read.children) {
      if (queued.has(child.agentId)) continue;
      queued.add(child.agentId);
      queue.push(child);
    }
  }
  if (agentsRead > 0) {
    diagnostics.push({
      level: 'info',
      code: 'subagents-read',
      message: `${calls.length} call(s) of ${agentsRead} subagent transcript(s) belong to the turn (${bytesRead} bytes read).`,
    });
  }
  return { calls: sortCallsByTime(calls), diagnostics, truncated, bytesRead, agentsRead };
}

/**
 * Where Claude Code writes a subagent's transcript: `<dir>/<session>/subagents/agent-<agentId>.jsonl`
 * for the main transcript `<dir>/<session>.jsonl` (the `agent_transcript_path` of its SubagentStop
 * payload). Undefined when the main path is not a `<session>.jsonl`.
 */
export function claudeSubagentTranscriptPath(transcriptPath: string, agentId: string): string | undefined {
  const name = basename(transcriptPath);
  if (!name.endsWith('.jsonl') || name.length === '.jsonl'.length) return undefined;
  return join(dirname(transcriptPath), name.slice(0, -'.jsonl'.length), 'subagents', `agent-${agentId}.jsonl`);
}

type SubagentsDir = { kind: 'dir'; path: string } | { kind: 'absent'; path: string } | { kind: 'refused'; reason: string };

/**
 * `<dir>/<session>/subagents` for `<dir>/<session>.jsonl`, checked with lstat: neither the session
 * folder nor `subagents` may be a symbolic link, so every file read below lies inside the session's
 * own folder (the file itself is opened with O_NOFOLLOW and ids hold no path separator).
 */
function subagentsDir(transcriptPath: string): SubagentsDir {
  const probe = claudeSubagentTranscriptPath(transcriptPath, 'x');
  if (probe === undefined) return { kind: 'absent', path: `${transcriptPath} (not a <session>.jsonl name)` };
  const path = dirname(probe);
  const sessionDir = dirname(path);
  for (const folder of [sessionDir, path]) {
    let stats;
    try {
      stats = lstatSync(folder);
    } catch {
      return { kind: 'absent', path };
    }
    if (stats.isSymbolicLink()) return { kind: 'refused', reason: `${folder} is a symbolic link: subagent transcripts are only read inside the session's own folder.` };
    if (!stats.isDirectory()) return { kind: 'refused', reason: `${folder} is not a directory: no subagent transcript was read.` };
  }
  return { kind: 'dir', path };
}

interface OneSubagent {
  readonly opened: boolean;
  readonly calls: readonly ToolCall[];
  readonly children: readonly ClaudeSubagentRef[];
  readonly diagnostics: readonly TimelineDiagnostic[];
  readonly truncated: boolean;
  readonly bytesRead: number;
}

function readOneSubagent(dir: string, ref: ClaudeSubagentRef, maxBytes: number, input: ReadClaudeSubagentsInput): OneSubagent {
  const none = (diagnostic: TimelineDiagnostic): OneSubagent => ({ opened: false, calls: [], children: [], diagnostics: [diagnostic], truncated: false, bytesRead: 0 });
  if (!SUBAGENT_ID_PATTERN.test(ref.agentId)) {
    return none({ level: 'warn', code: 'subagent-refused', message: `Subagent id ${JSON.stringify(ref.agentId.slice(0, 80))} is not a plain id: not used as a file name.` });
  }
  const path = join(dir, `agent-${ref.agentId}.jsonl`);
  const sinceMs = ref.since === undefined ? Number.NaN : Date.parse(ref.since);
  const newestFirst: ClaudeEntry[] = [];
  let tail;
  try {
    tail = readJsonlTail(path, {
      maxBytes,
      noFollow: true,
      skipLine: skipClaudeSubagentLine,
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.deadlineAt !== undefined ? { deadlineAt: input.deadlineAt } : {}),
      visit: (raw) => {
        const parsed = parseClaudeLine(raw, { keepSidechain: true });
        if (parsed.kind !== 'entry') return 'continue';
        const entry = parsed.entry;
        const at = entry.timestamp === undefined ? Number.NaN : Date.parse(entry.timestamp);
        // Entries older than the spawning / resuming call are an earlier turn's work.
        if (at < sinceMs) return 'stop';
        newestFirst.push(entry);
        return 'continue';
      },
    });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') {
      return none({ level: 'info', code: 'subagent-missing', message: `Subagent ${ref.agentId} has no transcript (${path}) yet: its calls are missing.` });
    }
    if (code === 'ELOOP' || code === 'ENOTREG') {
      return none({ level: 'warn', code: 'subagent-refused', message: `${path} is a symbolic link or not a regular file: not read.` });
    }
    return none({ level: 'warn', code: 'subagent-read-error', message: `Subagent transcript ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}` });
  }

  const diagnostics: TimelineDiagnostic[] = [];
  if (tail.corruptLines > 0) {
    diagnostics.push({ level: 'info', code: 'subagent-corrupt-line', message: `${tail.corruptLines} line(s) of ${path} that are not valid JSON were skipped.` });
  }
  const cut = tail.capped || tail.aborted;
  if (cut) {
    diagnostics.push({
      level: 'warn',
      code: tail.aborted ? 'aborted' : 'cap-reached',
      message: tail.aborted
        ? `Reading subagent ${ref.agentId}'s transcript was aborted: only the tail of its work was read.`
        : `Subagent ${ref.agentId}'s part of the turn is longer than the bytes left for subagent transcripts: only its tail was read.`,
    });
  }

  const entries = newestFirst.reverse();
  const uses: TimedClaudeToolUse[] = [];
  const results = new Map<string, ClaudeToolResult>();
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.kind === 'assistant') {
      for (const use of entry.toolUses) {
        if (seen.has(use.id)) continue;
        seen.add(use.id);
        uses.push({ use, timestamp: entry.timestamp });
      }
    } else if (entry.kind === 'user') {
      for (const result of entry.toolResults) if (!results.has(result.toolUseId)) results.set(result.toolUseId, result);
    }
  }
  const origin: ToolCallOrigin = {
    kind: 'subagent',
    agentId: ref.agentId,
    ...(ref.agentType === undefined ? {} : { agentType: ref.agentType }),
    ...(ref.parentCallId === undefined ? {} : { parentCallId: ref.parentCallId }),
  };
  const calls = uses.map(({ use, timestamp }) => ({ ...buildClaudeToolCall(use, results.get(use.id), timestamp, input.excerpt), origin }));
  const children = findClaudeSubagentRefs(uses, results, undefined);
  return { opened: true, calls, children, diagnostics, truncated: cut, bytesRead: tail.bytesRead };
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
