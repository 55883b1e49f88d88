import { lstatSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  emptySubagentWalk,
  readJsonlTail,
  walkSubagentTranscripts,
  type SubagentFileLocation,
  type SubagentWalkLimits,
  type SubagentWalkResult,
  type ToolCall,
} from '@agent-checkpoint/core';
import { parseQwenRecord, type QwenRecord } from './qwen-record.ts';
import { resultsById, toCall } from './qwen-tool-call.ts';

/** Most subagent files read for one turn (nested subagents included). */
export const MAX_QWEN_SUBAGENTS_PER_TURN = 16;
/** Qwen sanitises every file name component to these characters; anything else is never a path here. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * A subagent started by an `agent` call of the turn. Qwen Code 0.24.4 runs it in the background and
 * records its conversation in `<project dir>/subagents/<session>/agent-<agent id>.jsonl`, the agent id
 * being `<subagent type>-<call id>` with every character outside `[A-Za-z0-9_-]` as `_`.
 */
export interface QwenSubagentRef {
  /** Qwen's agent id (`general-purpose-call_…`), or the call id when the call names no type. */
  readonly agentId: string;
  readonly agentType?: string;
  /** The starting `agent` call's id; the file name ends with it. */
  readonly parentCallId: string;
}

/** The subagents the `agent` calls of `records` started, in call order, each once. */
export function subagentRefsOf(records: readonly QwenRecord[]): QwenSubagentRef[] {
  const refs: QwenSubagentRef[] = [];
  for (const record of records) {
    if (record.kind !== 'assistant') continue;
    for (const call of record.calls) {
      if (call.name !== 'agent' || refs.some((ref) => ref.parentCallId === call.id)) continue;
      const type = call.args['subagent_type'];
      const agentType = typeof type === 'string' && type !== '' ? type : undefined;
      const agentId = agentType === undefined ? call.id : `${agentType}-${call.id}`.replace(/[^a-zA-Z0-9_-]/g, '_');
      refs.push({ agentId, parentCallId: call.id, ...(agentType !== undefined ? { agentType } : {}) });
    }
  }
  return refs;
}

/** Arguments of {@link readQwenSubagents}. */
export interface ReadQwenSubagentsInput extends SubagentWalkLimits<QwenSubagentRef> {
  /** The main recording, `<project dir>/chats/<session>.jsonl`. */
  readonly transcriptPath: string;
  readonly sessionId: string;
  /** Default {@link MAX_QWEN_SUBAGENTS_PER_TURN}. */
  readonly maxAgents?: number;
}

/**
 * Read each started subagent's file (one byte cap across all, backwards from each file's end) and
 * return its calls marked with their origin. A subagent's tool results carry no `toolCallResult`,
 * only `response.error` on failure. Never throws: core's {@link walkSubagentTranscripts} turns a
 * missing, symlinked or refused file into a diagnostic; this file knows Qwen's layout only.
 */
export function readQwenSubagents(input: ReadQwenSubagentsInput): SubagentWalkResult {
  if (input.refs.length === 0) return emptySubagentWalk();
  if (!ID_PATTERN.test(input.sessionId)) {
    return emptySubagentWalk([{ level: 'warn', code: 'subagent-refused', message: 'The session id is not a plain id: the subagent folder is not looked up.' }]);
  }
  // `<project dir>/chats/<session>.jsonl` → `<project dir>/subagents/<session>/`
  const folder = join(dirname(dirname(input.transcriptPath)), 'subagents', input.sessionId);
  let names: string[];
  try {
    const stats = lstatSync(folder);
    if (stats.isSymbolicLink() || !stats.isDirectory()) {
      return emptySubagentWalk([{ level: 'warn', code: 'subagent-refused', message: `${folder} is a symbolic link or not a directory: subagent files are only read inside the session's own folder.` }]);
    }
    names = readdirSync(folder).filter((name) => name.startsWith('agent-') && name.endsWith('.jsonl'));
  } catch {
    return emptySubagentWalk([{ level: 'info', code: 'subagent-missing', message: `No subagent folder ${folder}: the subagents' calls are missing.` }]);
  }

  return walkSubagentTranscripts<QwenSubagentRef>({
    ...input,
    maxAgents: input.maxAgents ?? MAX_QWEN_SUBAGENTS_PER_TURN,
    noun: 'file',
    locate: (ref): SubagentFileLocation => {
      if (!ID_PATTERN.test(ref.parentCallId) || !ID_PATTERN.test(ref.agentId)) {
        return { kind: 'skip', diagnostic: { level: 'warn', code: 'subagent-refused', message: `Subagent id ${JSON.stringify(ref.agentId.slice(0, 80))} is not a plain id: not used in a file name.` } };
      }
      const name = names.find((n) => n === `agent-${ref.agentId}.jsonl`) ?? names.find((n) => n.endsWith(`-${ref.parentCallId}.jsonl`));
      return name === undefined
        ? { kind: 'skip', diagnostic: { level: 'info', code: 'subagent-missing', message: `No subagent file for call ${ref.parentCallId} in ${folder}: its calls are missing.` } }
        : { kind: 'file', path: join(folder, basename(name)) };
    },
    read: (path, _ref, bounds) => {
      const records: QwenRecord[] = [];
      const tail = readJsonlTail(path, {
        ...bounds,
        visit: (raw) => {
          const record = parseQwenRecord(raw);
          if (record !== undefined) records.push(record);
          return 'continue';
        },
      });
      const oldestFirst = records.reverse();
      return { tail, complete: tail.reachedStart, calls: callsOf(oldestFirst), children: subagentRefsOf(oldestFirst) };
    },
  });
}

/** Every call of a subagent's file with its result (the whole file is the one invocation). */
function callsOf(records: readonly QwenRecord[]): ToolCall[] {
  const results = resultsById(records);
  return records.flatMap((record) => (record.kind === 'assistant' ? record.calls.map((call) => toCall(call, record.timestamp, results.get(call.id))) : []));
}
