import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { emptySubagentWalk, walkSubagentTranscripts, type SubagentFileLocation, type SubagentWalkLimits, type SubagentWalkResult } from '@agent-checkpoint/core';
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
export interface ReadGeminiSubagentsInput extends SubagentWalkLimits<GeminiSubagentRef> {
  /** The main recording, `…/chats/session-….jsonl`. */
  readonly transcriptPath: string;
  /** The main session id (its metadata line); the subagent folder is named after it. */
  readonly sessionId: string | undefined;
  /** Default {@link MAX_GEMINI_SUBAGENTS_PER_TURN}. */
  readonly maxAgents?: number;
}

/** What the subagent recordings added to the turn (see core's {@link SubagentWalkResult}). */
export type GeminiSubagentCalls = SubagentWalkResult;

/**
 * Read each invoked subagent's recording (bounded: one byte cap across all of them, backwards from
 * each file's end) and return its calls marked with their origin, in time order. Never throws: a
 * missing, corrupt, symlinked or otherwise refused file gives a diagnostic. Subagents invoked by a
 * subagent are followed (their recordings share the main session's folder). Core's
 * {@link walkSubagentTranscripts} does the bounded walk; this file knows Gemini's layout and records.
 */
export function readGeminiSubagents(input: ReadGeminiSubagentsInput): GeminiSubagentCalls {
  if (input.refs.length === 0) return emptySubagentWalk();
  const sessionId = input.sessionId;
  if (sessionId === undefined || !ID_PATTERN.test(sessionId)) {
    return emptySubagentWalk([{ level: 'info', code: 'subagent-missing', message: 'The session id is unknown (no metadata line read): the subagent recordings cannot be found.' }]);
  }
  const folder = join(dirname(input.transcriptPath), sessionId);
  try {
    const stats = lstatSync(folder);
    if (stats.isSymbolicLink() || !stats.isDirectory()) {
      return emptySubagentWalk([
        { level: 'warn', code: 'subagent-refused', message: `${folder} is a symbolic link or not a directory: subagent recordings are only read inside the session's own folder.` },
      ]);
    }
  } catch {
    return emptySubagentWalk([{ level: 'info', code: 'subagent-missing', message: `No subagent folder ${folder}: the subagents' calls are missing.` }]);
  }

  return walkSubagentTranscripts<GeminiSubagentRef>({
    ...input,
    maxAgents: input.maxAgents ?? MAX_GEMINI_SUBAGENTS_PER_TURN,
    noun: 'recording',
    locate: (ref): SubagentFileLocation =>
      ID_PATTERN.test(ref.agentId)
        ? { kind: 'file', path: join(folder, `${ref.agentId}.jsonl`) }
        : { kind: 'skip', diagnostic: { level: 'warn', code: 'subagent-refused', message: `Subagent id ${JSON.stringify(ref.agentId.slice(0, 80))} is not a plain id: not used as a file name.` } },
    read: (path, _ref, bounds) => {
      const collection = collectGeminiTail(path, { ...bounds, rule: WHOLE_FILE });
      const messages = reduceGeminiRecords(collection.records).messages;
      // A `$set.messages` reset ends the read: a cap or abort after it cut nothing.
      return { tail: collection.tail, complete: collection.resetReached, calls: callsOf(messages), children: findGeminiSubagentRefs(messages) };
    },
  });
}
