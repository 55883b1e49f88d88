import { lstatSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  emptySubagentWalk,
  readJsonlTail,
  walkSubagentTranscripts,
  type SubagentFileLocation,
  type SubagentWalkLimits,
  type SubagentWalkResult,
  type TimelineDiagnostic,
} from '@agent-checkpoint/core';
import { buildToolCalls } from './build-tool-calls.ts';
import type { CodexRecord } from './codex-record.ts';
import { groupCodexTurns, type CodexTurn } from './group-codex-turns.ts';
import { THREAD_ID, uuidV7Time } from './locate-codex-rollout.ts';
import { isCodexRolloutLine, parseCodexLine } from './parse-codex-line.ts';
import { skipCodexLine } from './skip-codex-line.ts';

/** Most subagent rollouts read for one turn (nested subagents included). */
export const MAX_CODEX_SUBAGENTS_PER_TURN = 16;
/** The collaboration tools that hand an existing subagent more work (a new turn of its own). */
const TASKING_TOOLS = new Set(['followup_task', 'send_message']);
/** The collaboration tools of 0.169 (the `collaboration` namespace); others are reported as unknown. */
const KNOWN_COLLAB_TOOLS = new Set(['spawn_agent', 'wait_agent', 'wait', 'send_message', 'send_input', 'followup_task', 'interrupt_agent', 'list_agents', 'close_agent', 'resume_agent']);
/**
 * `started` by a `spawn_agent` call; `interacted` by a `followup_task` (the subagent runs a new turn
 * for this one); `completed` when the subagent's final answer reached the parent.
 */
const KNOWN_ACTIVITY_KINDS = new Set(['started', 'interacted', 'completed']);

/**
 * A subagent thread the turn started or tasked. Codex 0.169 runs each subagent as a thread with a
 * rollout of its own (`rollout-<time>-<thread id>.jsonl` in the same `sessions/` tree); the parent's
 * rollout names it in the `SubAgentActivity` item of the `spawn_agent` call (`agent_thread_id`) and
 * in the `receiver_thread_ids` of a `followup_task` / `send_message` item.
 */
export interface CodexSubagentRef {
  /** The subagent's thread id (untrusted: only a UUID is ever used in a file name). */
  readonly agentId: string;
  /** Its canonical task name (`/root/greeter`). */
  readonly agentType?: string;
  readonly parentCallId?: string;
}

/** The subagents the records (one turn's) started or tasked, in order, each once; and what could not be read. */
export function findCodexSubagentRefs(records: readonly CodexRecord[]): { refs: CodexSubagentRef[]; diagnostics: TimelineDiagnostic[] } {
  const refs: CodexSubagentRef[] = [];
  const diagnostics: TimelineDiagnostic[] = [];
  const seen = new Set<string>();
  const add = (ref: CodexSubagentRef): void => {
    if (seen.has(ref.agentId)) return;
    seen.add(ref.agentId);
    refs.push(ref);
  };
  for (const record of records) {
    switch (record.type) {
      case 'subagent':
        if (record.threadId !== undefined && KNOWN_ACTIVITY_KINDS.has(record.kind)) {
          add({ agentId: record.threadId, ...(record.agentPath !== undefined ? { agentType: record.agentPath } : {}), parentCallId: record.callId });
        } else if (!KNOWN_ACTIVITY_KINDS.has(record.kind)) {
          diagnostics.push(unknownShape(`a subagent activity of kind ${JSON.stringify(record.kind.slice(0, 40))} (call ${record.callId})`));
        }
        break;
      case 'collab':
        if (TASKING_TOOLS.has(record.tool)) for (const threadId of record.receiverThreadIds) add({ agentId: threadId, parentCallId: record.callId });
        else if (!KNOWN_COLLAB_TOOLS.has(record.tool)) diagnostics.push(unknownShape(`the collaboration tool ${JSON.stringify(record.tool.slice(0, 40))} (call ${record.callId})`));
        break;
      case 'unknown-item':
        if (/agent|collab/i.test(record.itemType)) diagnostics.push(unknownShape(`an item of type ${JSON.stringify(record.itemType.slice(0, 40))}`));
        break;
      case 'call':
        if (record.namespace === 'collaboration' && !KNOWN_COLLAB_TOOLS.has(record.rawName)) {
          diagnostics.push(unknownShape(`the collaboration tool ${JSON.stringify(record.rawName.slice(0, 40))} (call ${record.callId})`));
        }
        break;
      default:
        break;
    }
  }
  return { refs, diagnostics };
}

function unknownShape(what: string): TimelineDiagnostic {
  return {
    level: 'warn',
    code: 'unknown-collaboration-item',
    message: `The rollout has ${what}, a multi-agent shape this reader does not know: work a subagent did through it may be missing from the turn.`,
  };
}

/** Arguments of {@link readCodexSubagents}. */
export interface ReadCodexSubagentsInput extends SubagentWalkLimits<CodexSubagentRef> {
  /** The parent's rollout, `…/sessions/YYYY/MM/DD/rollout-…-<thread id>.jsonl`. */
  readonly transcriptPath: string;
  /** Root turn ids of the parent's turn span: a subagent turn whose `root_turn_id` is one of them is the turn's work. */
  readonly rootTurnIds: ReadonlySet<string>;
  readonly checkpointPrefix: string;
  /** Default {@link MAX_CODEX_SUBAGENTS_PER_TURN}. */
  readonly maxAgents?: number;
}

/**
 * Read the rollouts of the turn's subagents (bounded: one byte cap across all of them, each read
 * backwards from its end) and return their calls of the turn, marked with their origin, in time
 * order. A subagent turn belongs to the parent's turn when its `task_started.root_turn_id` is the
 * parent turn's (a followup in a later parent turn is that turn's work). Subagents a subagent started
 * are followed. Never throws: core's {@link walkSubagentTranscripts} does the bounded walk and turns
 * a missing, corrupt or symlinked file into a diagnostic.
 */
export function readCodexSubagents(input: ReadCodexSubagentsInput): SubagentWalkResult {
  if (input.refs.length === 0) return emptySubagentWalk();
  const dayDirs = sessionDayDirs(input.transcriptPath);
  return walkSubagentTranscripts<CodexSubagentRef>({
    ...input,
    maxAgents: input.maxAgents ?? MAX_CODEX_SUBAGENTS_PER_TURN,
    noun: 'rollout',
    locate: (ref) => locate(ref, dayDirs),
    read: (path, _ref, bounds) => {
      const lines: CodexRecord[][] = [];
      const tail = readJsonlTail(path, {
        ...bounds,
        skipLine: skipCodexLine,
        visit: (entry, info) => {
          if (isCodexRolloutLine(entry)) lines.push(parseCodexLine(entry, info.offset));
          return 'continue';
        },
      });
      const records = lines.reverse().flat();
      const turns = groupCodexTurns(records, input.checkpointPrefix, tail.reachedStart && !tail.stopped);
      const mine = turns.filter((turn) => belongsTo(turn, input.rootTurnIds));
      const keys = new Set(mine.map((turn) => turn.key));
      const turnOf = new Map<CodexRecord, string>();
      for (const turn of turns) for (const record of turn.records) turnOf.set(record, turn.key);
      const calls = buildToolCalls(records, (record) => turnOf.get(record) ?? '#window-start', undefined, { turns: keys })
        .filter((placed) => keys.has(placed.turnKey))
        .map((placed) => placed.call);
      return { tail, complete: tail.reachedStart, calls, children: findCodexSubagentRefs(mine.flatMap((turn) => turn.records)).refs };
    },
  });
}

function belongsTo(turn: CodexTurn, rootTurnIds: ReadonlySet<string>): boolean {
  const root = turn.start?.rootTurnId;
  return root !== undefined && rootTurnIds.has(root);
}

/**
 * The `sessions/YYYY/MM/DD` directories a subagent's rollout may be in: the parent's own, and the
 * days of the subagent thread's creation (its UUIDv7 time, UTC and local, ±1 day) in the same
 * `sessions` tree. Undefined entries are skipped when the parent's path is not in that layout.
 */
function sessionDayDirs(transcriptPath: string): { readonly own: string; readonly sessions?: string } {
  const own = dirname(transcriptPath);
  const month = dirname(own);
  const year = dirname(month);
  const layout = /^\d{2}$/.test(basename(own)) && /^\d{2}$/.test(basename(month)) && /^\d{4}$/.test(basename(year));
  return layout ? { own, sessions: dirname(year) } : { own };
}

function locate(ref: CodexSubagentRef, dirs: { readonly own: string; readonly sessions?: string }): SubagentFileLocation {
  if (!THREAD_ID.test(ref.agentId)) {
    return { kind: 'skip', diagnostic: { level: 'warn', code: 'subagent-refused', message: `Subagent thread id ${JSON.stringify(ref.agentId.slice(0, 80))} is not a UUID: not used as a file name.` } };
  }
  const suffix = `-${ref.agentId}.jsonl`;
  const candidates = [dirs.own];
  const created = uuidV7Time(ref.agentId);
  if (created && dirs.sessions !== undefined) {
    for (const offset of [0, -86_400_000, 86_400_000]) {
      const date = new Date(created.getTime() + offset);
      for (const day of [utcDay(date), localDay(date)]) {
        const dir = join(dirs.sessions, day);
        if (!candidates.includes(dir)) candidates.push(dir);
      }
    }
  }
  for (const dir of candidates) {
    if (!isRealDirectory(dir)) continue;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    const name = names.find((entry) => entry.startsWith('rollout-') && entry.endsWith(suffix));
    if (name !== undefined) return { kind: 'file', path: join(dir, name) };
  }
  return { kind: 'skip', diagnostic: { level: 'info', code: 'subagent-missing', message: `No rollout of subagent thread ${ref.agentId} was found next to the session's: its calls are missing.` } };
}

/** A directory that is not a symbolic link: rollouts are only looked for inside the sessions tree itself. */
function isRealDirectory(path: string): boolean {
  try {
    const stats = lstatSync(path);
    return stats.isDirectory() && !stats.isSymbolicLink();
  } catch {
    return false;
  }
}

function utcDay(date: Date): string {
  return `${date.getUTCFullYear()}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}`;
}

function localDay(date: Date): string {
  return `${date.getFullYear()}/${pad(date.getMonth() + 1)}/${pad(date.getDate())}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
