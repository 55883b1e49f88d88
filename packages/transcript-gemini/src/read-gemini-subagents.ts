import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sortCallsByTime, type TimelineDiagnostic, type ToolCall, type ToolCallOrigin } from '@agent-checkpoint/core';
import { callsOf } from './build-gemini-timeline.ts';
import { collectGeminiTail } from './collect-gemini-tail.ts';
import { isRecord, type GeminiMessage } from './gemini-record.ts';
import type { BoundaryRule } from './gemini-turn-rules.ts';
import { reduceGeminiRecords } from './reduce-gemini-records.ts';

/** Most subagent recordings read for one turn (nested subagents included). */
export const MAX_GEMINI_SUBAGENTS_PER_TURN = 16;
/** Ids used as file names: gemini-cli's are UUIDs; anything else is never used as a path. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
/** Every message of a subagent recording belongs to the one invocation that created it. */
const WHOLE_FILE: BoundaryRule = { kind: 'fallback', isBoundary: () => false };

/**
 * A subagent invoked in the turn. gemini-cli 0.61 runs each invocation as a fresh agent (a new
 * random `agentId`) and records its conversation in `chats/<main sessionId>/<agentId>.jsonl`; the
 * invoking tool call of the main recording carries that `agentId` (`toolCalls[].agentId`).
 */
export interface GeminiSubagentRef {
  readonly agentId: string;
  /** The invoking tool's name: the agent's name (`codebase_investigator`, `generalist`…). */
  readonly agentType?: string;
  readonly parentCallId?: string;
}

/** The subagents invoked by `turn`'s tool calls, in call order, each once. */
export function findGeminiSubagentRefs(turn: readonly GeminiMessage[]): GeminiSubagentRef[] {
  const refs: GeminiSubagentRef[] = [];
  const seen = new Set<string>();
  for (const message of turn) {
    const toolCalls = message.type === 'gemini' ? message.raw['toolCalls'] : undefined;
    if (!Array.isArray(toolCalls)) continue;
    for (const entry of toolCalls) {
      if (!isRecord(entry)) continue;
      const agentId = entry['agentId'];
      if (typeof agentId !== 'string' || agentId.length === 0 || seen.has(agentId)) continue;
      seen.add(agentId);
      const name = entry['name'];
      const id = entry['id'];
      refs.push({
        agentId,
        ...(typeof name === 'string' && name.length > 0 ? { agentType: name } : {}),
        ...(typeof id === 'string' && id.length > 0 ? { parentCallId: id } : {}),
      });
    }
  }
  return refs;
}

/** Arguments of {@link readGeminiSubagents}. */
export interface ReadGeminiSubagentsInput {
  /** The main recording, `…/chats/session-….jsonl`. */
  readonly transcriptPath: string;
  /** The main session id (its metadata line); the subagent folder is named after it. */
  readonly sessionId: string | undefined;
  readonly refs: readonly GeminiSubagentRef[];
  /** Total byte cap across the subagent recordings of the turn. */
  readonly maxBytes: number;
  readonly knownCallIds: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  /** The hook's deadline (`ReadTurnRequest.deadlineAt`): parsing stops there like an abort. */
  readonly deadlineAt?: number;
  readonly maxAgents?: number;
}

/** What the subagent recordings added to the turn. */
export interface GeminiSubagentCalls {
  readonly calls: readonly ToolCall[];
  readonly diagnostics: readonly TimelineDiagnostic[];
  readonly truncated: boolean;
  readonly bytesRead: number;
  readonly agentsRead: number;
}

/**
 * Read each invoked subagent's recording (bounded: one byte cap across all of them, backwards from
 * each file's end) and return its calls marked with their origin, in time order. Never throws: a
 * missing, corrupt, symlinked or otherwise refused file gives a diagnostic. Subagents invoked by a
 * subagent are followed (their recordings share the main session's folder).
 */
export function readGeminiSubagents(input: ReadGeminiSubagentsInput): GeminiSubagentCalls {
  const diagnostics: TimelineDiagnostic[] = [];
  const calls: ToolCall[] = [];
  const known = new Set(input.knownCallIds);
  const maxAgents = input.maxAgents ?? MAX_GEMINI_SUBAGENTS_PER_TURN;
  const queue = [...input.refs];
  const queued = new Set(queue.map((ref) => ref.agentId));
  let bytesRead = 0;
  let agentsRead = 0;
  let truncated = false;
  const done = (): GeminiSubagentCalls => ({ calls: sortCallsByTime(calls), diagnostics, truncated, bytesRead, agentsRead });
  if (queue.length === 0) return done();

  const sessionId = input.sessionId;
  if (sessionId === undefined || !ID_PATTERN.test(sessionId)) {
    diagnostics.push({ level: 'info', code: 'subagent-missing', message: 'The session id is unknown (no metadata line read): the subagent recordings cannot be found.' });
    return done();
  }
  const folder = join(dirname(input.transcriptPath), sessionId);
  try {
    const stats = lstatSync(folder);
    if (stats.isSymbolicLink() || !stats.isDirectory()) {
      diagnostics.push({ level: 'warn', code: 'subagent-refused', message: `${folder} is a symbolic link or not a directory: subagent recordings are only read inside the session's own folder.` });
      return done();
    }
  } catch {
    diagnostics.push({ level: 'info', code: 'subagent-missing', message: `No subagent folder ${folder}: the subagents' calls are missing.` });
    return done();
  }

  while (queue.length > 0) {
    const ref = queue.shift() as GeminiSubagentRef;
    if (input.signal?.aborted || (input.deadlineAt !== undefined && Date.now() >= input.deadlineAt)) {
      truncated = true;
      diagnostics.push({ level: 'warn', code: 'aborted', message: `Reading was aborted before subagent ${ref.agentId}'s recording: its calls are missing.` });
      break;
    }
    if (agentsRead >= maxAgents) {
      truncated = true;
      diagnostics.push({ level: 'warn', code: 'subagent-limit', message: `Only the first ${maxAgents} subagent recordings of the turn were read; ${queue.length + 1} more were skipped.` });
      break;
    }
    const remaining = input.maxBytes - bytesRead;
    if (remaining <= 0) {
      truncated = true;
      diagnostics.push({ level: 'warn', code: 'cap-reached', message: `The ${input.maxBytes}-byte cap for subagent recordings was used up before subagent ${ref.agentId}: its calls are missing.` });
      break;
    }
    if (!ID_PATTERN.test(ref.agentId)) {
      diagnostics.push({ level: 'warn', code: 'subagent-refused', message: `Subagent id ${JSON.stringify(ref.agentId.slice(0, 80))} is not a plain id: not used as a file name.` });
      continue;
    }
    const path = join(folder, `${ref.agentId}.jsonl`);
    let collection;
    try {
      collection = collectGeminiTail(path, { maxBytes: remaining, rule: WHOLE_FILE, noFollow: true, ...(input.signal ? { signal: input.signal } : {}), ...(input.deadlineAt !== undefined ? { deadlineAt: input.deadlineAt } : {}) });
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code?: unknown }).code : undefined;
      if (code === 'ENOENT') diagnostics.push({ level: 'info', code: 'subagent-missing', message: `Subagent ${ref.agentId} has no recording (${path}): its calls are missing.` });
      else if (code === 'ELOOP' || code === 'ENOTREG') diagnostics.push({ level: 'warn', code: 'subagent-refused', message: `${path} is a symbolic link or not a regular file: not read.` });
      else diagnostics.push({ level: 'warn', code: 'subagent-read-error', message: `Subagent recording ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    agentsRead += 1;
    const { tail } = collection;
    bytesRead += tail.bytesRead;
    if (tail.corruptLines > 0) {
      diagnostics.push({ level: 'info', code: 'subagent-corrupt-line', message: `${tail.corruptLines} line(s) of ${path} that are not valid JSON were skipped.` });
    }
    if ((tail.capped || tail.aborted) && !collection.resetReached) {
      truncated = true;
      diagnostics.push({
        level: 'warn',
        code: tail.aborted ? 'aborted' : 'cap-reached',
        message: `Only the tail of subagent ${ref.agentId}'s recording was read (${tail.aborted ? 'aborted' : 'byte cap'}): its earlier calls are missing.`,
      });
    }
    const messages = reduceGeminiRecords(collection.records).messages;
    const origin: ToolCallOrigin = {
      kind: 'subagent',
      agentId: ref.agentId,
      ...(ref.agentType === undefined ? {} : { agentType: ref.agentType }),
      ...(ref.parentCallId === undefined ? {} : { parentCallId: ref.parentCallId }),
    };
    for (const call of callsOf(messages)) {
      if (known.has(call.id)) continue;
      known.add(call.id);
      calls.push({ ...call, origin });
    }
    for (const child of findGeminiSubagentRefs(messages)) {
      if (queued.has(child.agentId)) continue;
      queued.add(child.agentId);
      queue.push(child);
    }
  }
  if (agentsRead > 0) {
    diagnostics.push({ level: 'info', code: 'subagents-read', message: `${calls.length} call(s) of ${agentsRead} subagent recording(s) belong to the turn (${bytesRead} bytes read).` });
  }
  return done();
}
