import {
  emptyTimeline,
  isDeliveredCheckpoint,
  makeOutputExcerpt,
  noRecordsDiagnostic,
  ownCheckpointRule,
  readJsonlTail,
  readTranscriptTurn,
  tailReadDiagnostics,
  transcriptWording,
  withReadStats,
  type NoRecordsWording,
  type OwnCheckpointRule,
  type ReadTurnRequest,
  type TimelineDiagnostic,
  type TokenUsage,
  type ToolCall,
  type TranscriptTurnFile,
  type TranscriptTurnReader,
  type TurnTimeline,
} from '@agent-checkpoint/core';
import { parseCopilotEvent, type CopilotEvent } from './copilot-event.ts';
import { copilotToolKind, copilotToolPaths } from './map-copilot-tool.ts';

const AGENT = 'copilot';
const PROMPT_CHARS = 2000;
const USAGE_HISTORY = 20;
const READER: TranscriptTurnReader = { agent: AGENT, wording: transcriptWording('Copilot session log') };
const NO_RECORDS: NoRecordsWording = {
  noCompleteLine: (bytes) => `No complete line in the last ${bytes} bytes of the Copilot session log.`,
  blank: (path) => `The Copilot session log holds only whitespace: ${path}`,
  foreign: (path) => `Not a GitHub Copilot CLI session log (no Copilot events): ${path}`,
  unknown: (path) => `No Copilot CLI events found in ${path}.`,
};

/** Tuning knobs of the reader (tests use a small chunk size to cross chunk boundaries). */
export interface ReadCopilotTurnOptions {
  readonly chunkBytes?: number;
}

/**
 * Read the current turn of a Copilot CLI `events.jsonl`, backwards from its end and never more than
 * `maxBytes`. The turn opens at the last prompt of the main agent that is not one of our checkpoints
 * (a block reason comes back as an ordinary `user.message`, `delivery: "queued"`). A subagent's
 * events sit in the same file: its prompt never opens a turn, its final text is not the turn's, and
 * its calls count for the turn marked with their origin (the parent's `task` call). Never throws.
 */
export function readCopilotTurn(request: ReadTurnRequest, options: ReadCopilotTurnOptions = {}): TurnTimeline {
  return readTranscriptTurn(request, READER, (file) => readFile(request, file, options));
}

function readFile(request: ReadTurnRequest, { path, bounds }: TranscriptTurnFile, options: ReadCopilotTurnOptions): TurnTimeline {
  const own = ownCheckpointRule(request);
  const events: CopilotEvent[] = []; // newest first
  let copilotLines = 0;
  let foreignLines = 0;
  let boundary: Extract<CopilotEvent, { kind: 'user' }> | undefined;
  const tail = readJsonlTail(path, {
    ...bounds,
    ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
    visit: (raw) => {
      const event = parseCopilotEvent(raw);
      if (event === undefined) {
        foreignLines += 1;
        return 'continue';
      }
      copilotLines += 1;
      events.push(event);
      if (event.kind === 'user' && !event.subagent && !isOwn(event.text, own)) {
        boundary = event;
        return 'stop';
      }
      return 'continue';
    },
  });

  const stat = (t: TurnTimeline): TurnTimeline => withReadStats(t, tail.bytesRead, tail.fileSize);
  if (copilotLines === 0) return stat(emptyTimeline(AGENT, noRecordsDiagnostic(tail, foreignLines, path, NO_RECORDS)));

  const diagnostics = tailReadDiagnostics(tail);
  const complete = boundary !== undefined;
  if (boundary !== undefined && !hintNames(request, boundary)) {
    diagnostics.push({ level: 'info', code: 'turn-not-found', message: 'The hook named a turn that is not the last prompt of the log: read the last prompt\'s turn.' });
  }
  if (!complete && !tail.reachedStart) diagnostics.push({ level: 'warn', code: 'cap-reached', message: 'The turn began before the bytes read: only its end is known.' });
  if (!complete && tail.reachedStart) {
    return stat({ ...emptyTimeline(AGENT), diagnostics: [...diagnostics, { level: 'warn', code: 'no-turn', message: `No prompt of the main agent in ${path}.` }] });
  }
  return stat(buildTimeline([...events].reverse(), boundary, own, !complete, diagnostics));
}

/**
 * Whether the caller's hint (if any) names the turn found. Copilot's own payload names none; a hint
 * from elsewhere (`explain --turn`, a prompt) that names another turn is reported, not searched for.
 */
function hintNames(request: ReadTurnRequest, boundary: Extract<CopilotEvent, { kind: 'user' }>): boolean {
  const { turnId, prompt } = request.hint ?? {};
  if (typeof turnId === 'string' && turnId !== boundary.id) return false;
  if (typeof prompt === 'string' && prompt.trim() !== '' && !boundary.text.trimStart().startsWith(prompt.trimStart())) return false;
  return true;
}

function isOwn(text: string, own: OwnCheckpointRule): boolean {
  return isDeliveredCheckpoint(text, own);
}

/** The timeline of `events` (oldest first, the boundary prompt first when found). */
function buildTimeline(
  events: readonly CopilotEvent[],
  boundary: Extract<CopilotEvent, { kind: 'user' }> | undefined,
  own: OwnCheckpointRule,
  truncated: boolean,
  diagnostics: readonly TimelineDiagnostic[],
): TurnTimeline {
  const results = new Map<string, Extract<CopilotEvent, { kind: 'tool-complete' }>>();
  const agentTypes = new Map<string, string>();
  for (const event of events) {
    if (event.kind === 'tool-complete') results.set(event.toolCallId, event);
    if (event.kind === 'subagent-started' && event.agentType !== undefined) agentTypes.set(event.toolCallId, event.agentType);
  }
  const calls: ToolCall[] = [];
  const seen = new Set<string>();
  const usage: TokenUsage[] = [];
  let checkpointsDelivered = 0;
  let lastUserMessage: string | undefined;
  let lastAssistantMessage: string | undefined;
  for (const event of events) {
    switch (event.kind) {
      case 'user':
        if (event.subagent) break;
        lastUserMessage = event.text;
        if (event !== boundary && isOwn(event.text, own)) checkpointsDelivered += 1;
        break;
      case 'assistant':
        if (event.parentToolCallId === undefined && event.text.trim() !== '') lastAssistantMessage = event.text;
        for (const request of event.toolRequests) {
          if (seen.has(request.toolCallId)) continue;
          seen.add(request.toolCallId);
          calls.push(toCall(request, event, results.get(request.toolCallId), agentTypes));
        }
        break;
      case 'usage':
        if (!event.subagent) usage.push(event.usage);
        break;
      case 'tool-complete':
      case 'subagent-started':
      case 'other':
        break;
    }
  }
  const history = usage.slice(-USAGE_HISTORY);
  const tokenUsage = history.at(-1);
  return {
    agent: AGENT,
    hasData: true,
    ...(boundary !== undefined ? { turnId: boundary.id, prompt: boundary.text.slice(0, PROMPT_CHARS) } : {}),
    ...(boundary?.timestamp !== undefined ? { startedAt: boundary.timestamp } : {}),
    calls,
    checkpointsDelivered,
    ...(lastUserMessage !== undefined ? { lastUserMessage } : {}),
    ...(lastAssistantMessage !== undefined ? { lastAssistantMessage } : {}),
    ...(tokenUsage !== undefined ? { tokenUsage, usageHistory: history } : {}),
    truncated,
    diagnostics,
  };
}

function toCall(
  request: Extract<CopilotEvent, { kind: 'assistant' }>['toolRequests'][number],
  message: Extract<CopilotEvent, { kind: 'assistant' }>,
  result: Extract<CopilotEvent, { kind: 'tool-complete' }> | undefined,
  agentTypes: ReadonlyMap<string, string>,
): ToolCall {
  const kind = copilotToolKind(request.name);
  const failed = result !== undefined && (!result.success || (result.exitCode !== undefined && result.exitCode !== 0));
  const parent = message.parentToolCallId;
  const agentType = parent === undefined ? undefined : agentTypes.get(parent);
  const at = message.timestamp ?? result?.timestamp;
  const base = {
    id: request.toolCallId,
    rawName: request.name,
    input: request.arguments,
    paths: copilotToolPaths(kind, request.arguments),
    outcome: result === undefined ? ('pending' as const) : failed ? ('error' as const) : ('success' as const),
    ...(result?.output !== undefined ? { output: makeOutputExcerpt(result.output) } : {}),
    ...(at !== undefined ? { timestamp: at } : {}),
    // The parent's `task` call is the only id the log gives the subagent.
    ...(parent !== undefined ? { origin: { kind: 'subagent' as const, agentId: parent, parentCallId: parent, ...(agentType !== undefined ? { agentType } : {}) } } : {}),
  };
  if (kind !== 'shell') return { ...base, kind };
  const command = typeof request.arguments['command'] === 'string' ? request.arguments['command'] : '';
  return {
    ...base,
    kind,
    command,
    ...(result?.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    ...(request.name === 'powershell' ? { dialect: 'powershell' as const } : {}),
  };
}

