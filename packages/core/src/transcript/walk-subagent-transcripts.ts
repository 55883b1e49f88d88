import { sortCallsByTime } from '../timeline/merge-calls-by-time.ts';
import type { ToolCall, ToolCallOrigin } from '../timeline/tool-call.ts';
import type { TimelineDiagnostic } from '../timeline/turn-timeline.ts';
import type { JsonlTailResult } from './read-jsonl-tail.ts';

/** The agent-agnostic part of a subagent reference: who it is and which call started it. */
export interface SubagentRefBase {
  /** Untrusted (read from a transcript): {@link WalkSubagentTranscriptsInput.locate} validates it. */
  readonly agentId: string;
  readonly agentType?: string;
  readonly parentCallId?: string;
}

/** Where a subagent's file is, or why it is not read (a `subagent-missing` / `subagent-refused` diagnostic). */
export type SubagentFileLocation = { readonly kind: 'file'; readonly path: string } | { readonly kind: 'skip'; readonly diagnostic: TimelineDiagnostic };

/** The bounds one file read must respect: the bytes left of the shared cap, the signal and the deadline. */
export interface SubagentReadBounds {
  readonly maxBytes: number;
  /** Always true: file names come from untrusted input, a symbolic link is refused (`O_NOFOLLOW`). */
  readonly noFollow: true;
  readonly signal?: AbortSignal;
  readonly deadlineAt?: number;
}

/** What one subagent file gave, as parsed by the agent's adapter. */
export interface SubagentFileRead<Ref extends SubagentRefBase> {
  /** The summary of the backwards read ({@link readJsonlTail}'s). */
  readonly tail: Pick<JsonlTailResult, 'bytesRead' | 'corruptLines' | 'capped' | 'aborted'>;
  /** True when the read stopped where nothing older can matter, so a cap or abort after it cut nothing. */
  readonly complete?: boolean;
  /** The file's calls of the turn, without origin (the walk marks it). */
  readonly calls: readonly ToolCall[];
  /** Subagents this subagent started: walked after the current queue. */
  readonly children: readonly Ref[];
}

/** The turn's subagents and the bounds of reading them: what an adapter's caller passes through. */
export interface SubagentWalkLimits<Ref extends SubagentRefBase> {
  readonly refs: readonly Ref[];
  /** Total byte cap across every file of the walk. */
  readonly maxBytes: number;
  /** Ids already on the timeline: a subagent call never duplicates one. */
  readonly knownCallIds: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  /** The hook's deadline (`ReadTurnRequest.deadlineAt`): no further file is started, and reads stop there like an abort. */
  readonly deadlineAt?: number;
}

/** Arguments of {@link walkSubagentTranscripts}. */
export interface WalkSubagentTranscriptsInput<Ref extends SubagentRefBase> extends SubagentWalkLimits<Ref> {
  /** Most files opened (nested subagents included). */
  readonly maxAgents: number;
  /** What the agent calls a subagent file in diagnostics (`transcript`, `recording`). */
  readonly noun: string;
  /** Resolve a ref to a file path, or to the diagnostic that says why it is not read. Must not throw. */
  readonly locate: (ref: Ref) => SubagentFileLocation;
  /**
   * Read and parse the turn's part of `path`, backwards, within `bounds` (use {@link readJsonlTail}
   * with them). May throw the open's error: `ENOENT`, `ELOOP`/`ENOTREG` and others become diagnostics.
   */
  readonly read: (path: string, ref: Ref, bounds: SubagentReadBounds) => SubagentFileRead<Ref>;
}

/** What the subagent files added to the turn. */
export interface SubagentWalkResult {
  /** The subagents' calls, each marked with its origin, in time order. */
  readonly calls: readonly ToolCall[];
  readonly diagnostics: readonly TimelineDiagnostic[];
  /** True when a cap, the agent limit, the signal or the deadline cut the subagents' part short. */
  readonly truncated: boolean;
  readonly bytesRead: number;
  /** Files actually opened and read. */
  readonly agentsRead: number;
}

/** A walk that read nothing, with the diagnostics that say why (e.g. the subagent folder is refused). */
export function emptySubagentWalk(diagnostics: readonly TimelineDiagnostic[] = []): SubagentWalkResult {
  return { calls: [], diagnostics, truncated: false, bytesRead: 0, agentsRead: 0 };
}

/**
 * Walk the subagent files of a turn, breadth first from `refs` (each agent id once, nested subagents
 * queued as they are found), under ONE byte cap shared by all files and at most `maxAgents` files.
 * Between files the signal, the deadline, the agent limit and the cap are checked (in that order);
 * the first that fails ends the walk with a diagnostic (`aborted`, `subagent-limit`, `cap-reached`)
 * and `truncated`. Never throws: a missing, refused or unreadable file gives a diagnostic and the walk
 * goes on with the others. The agent's format lives only in the callbacks: `locate` (ids to paths,
 * refusing what is not a plain id) and `read` (parse lines into calls and nested refs).
 */
export function walkSubagentTranscripts<Ref extends SubagentRefBase>(input: WalkSubagentTranscriptsInput<Ref>): SubagentWalkResult {
  const { noun } = input;
  const diagnostics: TimelineDiagnostic[] = [];
  const calls: ToolCall[] = [];
  const knownIds = new Set(input.knownCallIds);
  // Each agent id once, the initial refs included (a repeated ref would be read, and counted, twice).
  const queued = new Set<string>();
  const queue = input.refs.filter((ref) => !queued.has(ref.agentId) && queued.add(ref.agentId));
  let bytesRead = 0;
  let agentsRead = 0;
  let truncated = false;

  while (queue.length > 0) {
    const ref = queue.shift() as Ref;
    if (input.signal?.aborted || (input.deadlineAt !== undefined && Date.now() >= input.deadlineAt)) {
      truncated = true;
      diagnostics.push({ level: 'warn', code: 'aborted', message: `Reading was aborted before subagent ${ref.agentId}'s ${noun}: its calls are missing.` });
      break;
    }
    if (agentsRead >= input.maxAgents) {
      truncated = true;
      diagnostics.push({ level: 'warn', code: 'subagent-limit', message: `Only the first ${input.maxAgents} subagent ${noun}s of the turn were read; ${queue.length + 1} more were skipped.` });
      break;
    }
    const remaining = input.maxBytes - bytesRead;
    if (remaining <= 0) {
      truncated = true;
      diagnostics.push({ level: 'warn', code: 'cap-reached', message: `The ${input.maxBytes}-byte cap for subagent ${noun}s was used up before subagent ${ref.agentId}: its calls are missing.` });
      break;
    }
    const location = input.locate(ref);
    if (location.kind === 'skip') {
      diagnostics.push(location.diagnostic);
      continue;
    }
    const { path } = location;
    let read: SubagentFileRead<Ref>;
    try {
      read = input.read(path, ref, {
        maxBytes: remaining,
        noFollow: true,
        ...(input.signal ? { signal: input.signal } : {}),
        ...(input.deadlineAt !== undefined ? { deadlineAt: input.deadlineAt } : {}),
      });
    } catch (error) {
      diagnostics.push(readFailure(error, ref, path, noun));
      continue;
    }
    agentsRead += 1;
    const { tail } = read;
    bytesRead += tail.bytesRead;
    if (tail.corruptLines > 0) {
      diagnostics.push({ level: 'info', code: 'subagent-corrupt-line', message: `${tail.corruptLines} line(s) of ${path} that are not valid JSON were skipped.` });
    }
    if ((tail.capped || tail.aborted) && read.complete !== true) {
      truncated = true;
      diagnostics.push({
        level: 'warn',
        code: tail.aborted ? 'aborted' : 'cap-reached',
        message: `Only the tail of subagent ${ref.agentId}'s ${noun} was read (${tail.aborted ? 'aborted' : 'byte cap'}): its earlier calls are missing.`,
      });
    }
    const origin = originOf(ref);
    for (const call of read.calls) {
      if (knownIds.has(call.id)) continue;
      knownIds.add(call.id);
      calls.push({ ...call, origin });
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
      message: `${calls.length} call(s) of ${agentsRead} subagent ${noun}(s) belong to the turn (${bytesRead} bytes read).`,
    });
  }
  return { calls: sortCallsByTime(calls), diagnostics, truncated, bytesRead, agentsRead };
}

function originOf(ref: SubagentRefBase): ToolCallOrigin {
  return {
    kind: 'subagent',
    agentId: ref.agentId,
    ...(ref.agentType === undefined ? {} : { agentType: ref.agentType }),
    ...(ref.parentCallId === undefined ? {} : { parentCallId: ref.parentCallId }),
  };
}

function readFailure(error: unknown, ref: SubagentRefBase, path: string, noun: string): TimelineDiagnostic {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code?: unknown }).code : undefined;
  if (code === 'ENOENT') return { level: 'info', code: 'subagent-missing', message: `Subagent ${ref.agentId} has no ${noun} (${path}) yet: its calls are missing.` };
  if (code === 'ELOOP' || code === 'ENOTREG') return { level: 'warn', code: 'subagent-refused', message: `${path} is a symbolic link or not a regular file: not read.` };
  return { level: 'warn', code: 'subagent-read-error', message: `Subagent ${noun} ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}` };
}
