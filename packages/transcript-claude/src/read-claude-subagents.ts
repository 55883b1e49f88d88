import { lstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  emptySubagentWalk,
  readJsonlTail,
  walkSubagentTranscripts,
  type SubagentFileLocation,
  type SubagentFileRead,
  type SubagentReadBounds,
  type SubagentWalkLimits,
  type SubagentWalkResult,
} from '@agent-checkpoint/core';
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
export interface ReadClaudeSubagentsInput extends SubagentWalkLimits<ClaudeSubagentRef> {
  /** The main transcript; subagents live in `<dir>/<session>/subagents/agent-<id>.jsonl` next to it. */
  readonly transcriptPath: string;
  readonly excerpt?: ExcerptBudget;
  /** Default {@link MAX_SUBAGENTS_PER_TURN}. */
  readonly maxAgents?: number;
}

/** What the subagent transcripts added to the turn (see core's {@link SubagentWalkResult}). */
export type ClaudeSubagentCalls = SubagentWalkResult;

/**
 * Read the turn's part of each subagent transcript, backwards from its end, never more than
 * `maxBytes` in total, and build its calls. Never throws: a missing, corrupt, symlinked or otherwise
 * refused file (the names come from the transcript, untrusted input) gives a diagnostic and is
 * skipped. Subagents spawned by a subagent are followed, up to `maxAgents` files in all (core's
 * {@link walkSubagentTranscripts} does the bounded walk; this file knows Claude's layout and lines).
 */
export function readClaudeSubagents(input: ReadClaudeSubagentsInput): ClaudeSubagentCalls {
  if (input.refs.length === 0) return emptySubagentWalk();
  const dir = subagentsDir(input.transcriptPath);
  if (dir.kind === 'refused') return emptySubagentWalk([{ level: 'warn', code: 'subagent-refused', message: dir.reason }]);
  return walkSubagentTranscripts<ClaudeSubagentRef>({
    ...input,
    maxAgents: input.maxAgents ?? MAX_SUBAGENTS_PER_TURN,
    noun: 'transcript',
    locate: (ref): SubagentFileLocation => {
      if (dir.kind === 'absent') {
        return { kind: 'skip', diagnostic: { level: 'info', code: 'subagent-missing', message: `No subagent transcript folder ${dir.path}: the calls of subagent ${ref.agentId} are missing.` } };
      }
      if (!SUBAGENT_ID_PATTERN.test(ref.agentId)) {
        return { kind: 'skip', diagnostic: { level: 'warn', code: 'subagent-refused', message: `Subagent id ${JSON.stringify(ref.agentId.slice(0, 80))} is not a plain id: not used as a file name.` } };
      }
      return { kind: 'file', path: join(dir.path, `agent-${ref.agentId}.jsonl`) };
    },
    read: (path, ref, bounds) => readOneSubagent(path, ref, bounds, input.excerpt),
  });
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

/** The turn's part of one subagent transcript: its entries since `ref.since`, read backwards within `bounds`. */
function readOneSubagent(path: string, ref: ClaudeSubagentRef, bounds: SubagentReadBounds, excerpt: ExcerptBudget | undefined): SubagentFileRead<ClaudeSubagentRef> {
  const sinceMs = ref.since === undefined ? Number.NaN : Date.parse(ref.since);
  const newestFirst: ClaudeEntry[] = [];
  const tail = readJsonlTail(path, {
    ...bounds,
    skipLine: skipClaudeSubagentLine,
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
  const calls = uses.map(({ use, timestamp }) => buildClaudeToolCall(use, results.get(use.id), timestamp, excerpt));
  const children = findClaudeSubagentRefs(uses, results, undefined);
  return { tail, calls, children };
}
