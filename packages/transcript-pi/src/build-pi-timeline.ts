import { isDeliveredCheckpoint, type OwnCheckpointRule, type TimelineDiagnostic, type TokenUsage, type ToolCall, type TurnTimeline } from '@agent-checkpoint/core';
import { buildPiToolCall } from './build-pi-tool-call.ts';
import type { CollectedPiTurn, PiMessageEntry } from './collect-pi-turn.ts';
import type { PiMessage } from './parse-pi-entry.ts';
import { piUsageRecord } from './pi-usage-records.ts';

const PROMPT_MAX_CHARS = 2000;
const USAGE_HISTORY_MAX = 20;

type PiToolResult = Extract<PiMessage, { role: 'toolResult' }>;

/** The timeline of the turn {@link collectPiTurn} found (without `readStats`, which the reader adds). */
export function buildPiTimeline(collected: CollectedPiTurn, own: OwnCheckpointRule, hintPrompt: string | undefined): TurnTimeline {
  const { messages, boundary } = collected;
  const turn = boundary === undefined ? messages : messages.slice(1);
  const diagnostics: TimelineDiagnostic[] = [];
  const complete = boundary !== undefined || collected.reachedRoot || collected.tail.reachedStart;
  let truncated = false;
  if (!complete) {
    truncated = true;
    // An abort or the deadline says so itself (the reader adds it); only the cap is said here.
    if (collected.tail.capped) diagnostics.push({ level: 'warn', code: 'cap-reached', message: 'The turn started before the read window (byte cap); the timeline holds only its tail.' });
  }
  if (collected.parentMissing) {
    diagnostics.push({ level: 'warn', code: 'parent-missing', message: 'An entry of the current branch names a parent the file does not hold; the turn is what the branch links back to.' });
  }
  const hasModelTurn = turn.some((entry) => entry.message.role === 'assistant');
  if (boundary === undefined && complete && !hasModelTurn) {
    return {
      agent: 'pi',
      hasData: false,
      calls: [],
      checkpointsDelivered: 0,
      truncated: false,
      ...lastUserMessageOf(messages),
      diagnostics: [...diagnostics, { level: 'info', code: 'no-turn', message: 'The session holds no user prompt and no model turn yet.' }],
    };
  }
  if (boundary === undefined && complete) {
    diagnostics.push({ level: 'info', code: 'no-boundary', message: 'No genuine user prompt found on the current branch; the whole branch is treated as the turn.' });
  }
  const prompt = boundary?.message.role === 'user' ? boundary.message.text : undefined;
  if (prompt !== undefined && hintPrompt !== undefined && hintPrompt.trim() !== '' && prompt.trim() !== hintPrompt.trim()) {
    diagnostics.push({ level: 'warn', code: 'turn-not-found', message: 'The hook payload prompt is not the last genuine prompt of the session; used the last genuine prompt.' });
  }
  const lastAssistant = [...turn].reverse().find((entry) => entry.message.role === 'assistant' && entry.message.text.trim().length > 0);
  const usage = usageOf(messages);
  return {
    agent: 'pi',
    hasData: true,
    ...(boundary !== undefined ? { turnId: boundary.id } : {}),
    ...(boundary?.timestamp !== undefined ? { startedAt: boundary.timestamp } : {}),
    ...(prompt !== undefined ? { prompt: prompt.slice(0, PROMPT_MAX_CHARS) } : {}),
    calls: callsOf(turn),
    checkpointsDelivered: turn.filter((entry) => entry.message.role === 'user' && isDeliveredCheckpoint(entry.message.text, own)).length,
    ...lastUserMessageOf(messages),
    ...(lastAssistant?.message.role === 'assistant' ? { lastAssistantMessage: lastAssistant.message.text } : {}),
    ...usage,
    truncated,
    diagnostics,
  };
}

/** The turn's tool calls in order, each paired with its result by `toolCallId`, never by position. */
function callsOf(turn: readonly PiMessageEntry[]): ToolCall[] {
  const results = new Map<string, PiToolResult>();
  for (const entry of turn) if (entry.message.role === 'toolResult') results.set(entry.message.toolCallId, entry.message);
  const calls = new Map<string, ToolCall>();
  for (const entry of turn) {
    if (entry.message.role !== 'assistant') continue;
    for (const call of entry.message.toolCalls) {
      if (!calls.has(call.id)) calls.set(call.id, buildPiToolCall(call, results.get(call.id), entry.timestamp));
    }
  }
  return [...calls.values()];
}

function lastUserMessageOf(messages: readonly PiMessageEntry[]): { lastUserMessage?: string } {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]?.message;
    if (message?.role === 'user') return { lastUserMessage: message.text };
  }
  return {};
}

function usageOf(messages: readonly PiMessageEntry[]): { tokenUsage?: TokenUsage; usageHistory?: readonly TokenUsage[] } {
  const history = messages.flatMap((entry) => {
    if (entry.message.role !== 'assistant') return [];
    const record = piUsageRecord(entry.message, entry.timestamp);
    return record === undefined ? [] : [record];
  });
  const last = history.at(-1);
  return last === undefined ? {} : { tokenUsage: last, usageHistory: history.slice(-USAGE_HISTORY_MAX) };
}
