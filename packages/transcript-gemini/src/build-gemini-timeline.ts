import { createHash } from 'node:crypto';
import { ownCheckpointRule, type CheckpointMessageTexts, type TimelineDiagnostic, type TokenUsage, type ToolCall, type TurnTimeline } from '@agent-checkpoint/core';
import { buildGeminiToolCall } from './build-gemini-tool-call.ts';
import { findGeminiTurnBoundary } from './find-gemini-turn-boundary.ts';
import { geminiUsageRecords } from './gemini-usage-records.ts';
import { assistantTextOf, functionResponsesOf, userTextOf } from './gemini-message-content.ts';
import type { GeminiMessage } from './gemini-record.ts';
import { isOwnCheckpoint, type OwnCheckpoints } from './gemini-turn-rules.ts';

const PROMPT_MAX_CHARS = 2000;
const USAGE_HISTORY_MAX = 20;

/** What the reader knows about the message list it hands over. */
export interface GeminiTimelineInput {
  /** The reduced message list of the read window, oldest first. */
  readonly messages: readonly GeminiMessage[];
  readonly sessionId?: string;
  readonly checkpointPrefix: string;
  /** `ReadTurnRequest.deliveredDigests`: when given, only these messages are our checkpoints. */
  readonly deliveredDigests?: readonly string[];
  /** `ReadTurnRequest.checkpointMessages`: without digests, our messages are recognised by their whole structure. */
  readonly checkpointMessages?: Partial<CheckpointMessageTexts>;
  readonly hintPrompt?: string;
  /**
   * True when everything that shapes the list was read: the start of the file, a `$set.messages`
   * rewrite, or a confirmed boundary. False when the byte cap (or an abort) ended the read first.
   */
  readonly complete: boolean;
  /** True when the list begins at a `$set.messages` rewrite (the CLI replaced its history). */
  readonly rewritten: boolean;
}

/** The timeline of the turn that ends the list (without `readStats`, which the reader adds). */
export function buildGeminiTimeline(input: GeminiTimelineInput): TurnTimeline {
  const { messages } = input;
  // Gemini records a deny reason as an ordinary user message: the delivery record, else the whole
  // structure of a composed message, tells it from a prompt typed with our prefix.
  const checkpointPrefix: OwnCheckpoints = ownCheckpointRule(input);
  const diagnostics: TimelineDiagnostic[] = [];
  const boundary = findGeminiTurnBoundary(messages, input.hintPrompt, checkpointPrefix);
  const opening = boundary.index !== undefined ? messages[boundary.index] : undefined;
  const turn = messages.slice(boundary.index !== undefined ? boundary.index + 1 : 0);

  if (boundary.hintMissed && opening) {
    diagnostics.push({
      level: 'warn',
      code: 'turn-not-found',
      message: 'No user message starts with the hook payload prompt; used the last genuine user prompt instead.',
    });
  }
  let truncated = false;
  if (!opening) {
    if (!input.complete) {
      truncated = true;
      diagnostics.push({
        level: 'warn',
        code: 'cap-reached',
        message: 'The turn started before the read window (byte cap); the timeline holds only its tail.',
      });
    } else if (input.rewritten && turn.some((m) => m.type === 'gemini')) {
      truncated = true;
      diagnostics.push({
        level: 'warn',
        code: 'boundary-rewritten',
        message: 'The CLI rewrote its history ($set.messages) and the prompt of this turn is no longer in it; the timeline holds only what remains.',
      });
    } else if (!turn.some((m) => m.type === 'gemini')) {
      return {
        agent: 'gemini',
        hasData: false,
        calls: [],
        checkpointsDelivered: 0,
        truncated: false,
        ...lastUserMessageOf(messages),
        ...usageOf(messages),
        diagnostics: [{ level: 'info', code: 'no-turn', message: 'The transcript holds no user prompt and no model turn yet.' }],
      };
    } else {
      diagnostics.push({
        level: 'info',
        code: 'no-boundary',
        message: 'No genuine user prompt found; the whole transcript is treated as the turn.',
      });
    }
  }

  const promptText = opening ? (userTextOf(opening) ?? '') : undefined;
  const startedAt = opening && typeof opening.raw['timestamp'] === 'string' ? opening.raw['timestamp'] : undefined;
  const lastAssistant = [...turn].reverse().map(assistantTextOf).find((text) => text.trim().length > 0);

  return {
    agent: 'gemini',
    hasData: true,
    ...(opening && promptText !== undefined ? { turnId: turnIdOf(input.sessionId, opening.id, promptText) } : {}),
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(promptText !== undefined ? { prompt: promptText.slice(0, PROMPT_MAX_CHARS) } : {}),
    calls: callsOf(turn, diagnostics),
    checkpointsDelivered: turn.filter((m) => {
      const text = userTextOf(m);
      return text !== undefined && isOwnCheckpoint(text, checkpointPrefix);
    }).length,
    ...lastUserMessageOf(messages),
    ...(lastAssistant !== undefined ? { lastAssistantMessage: lastAssistant } : {}),
    ...usageOf(messages),
    truncated,
    diagnostics,
  };
}

/**
 * A short stable identity for the turn: the same session, boundary message and prompt text give the
 * same id on every AfterAgent of the turn (the boundary id is a UUID the CLI never changes).
 */
export function turnIdOf(sessionId: string | undefined, boundaryId: string, promptText: string): string {
  return createHash('sha256')
    .update(`${sessionId ?? ''}\u0000${boundaryId}\u0000${promptText}`)
    .digest('hex')
    .slice(0, 16);
}

/**
 * The tool calls recorded in `turn`'s `gemini` messages, paired with their results. A `toolCalls`
 * entry the reader cannot interpret (not an object, or without a tool name) is left out of the
 * calls, and said so in one `unread-tool-call` diagnostic when `diagnostics` is given: never silence.
 */
export function callsOf(turn: readonly GeminiMessage[], diagnostics?: TimelineDiagnostic[]): ToolCall[] {
  const responsesById = new Map<string, Readonly<Record<string, unknown>>>();
  for (const message of turn) {
    for (const response of functionResponsesOf(message)) {
      if (typeof response['id'] === 'string') responsesById.set(response['id'], response);
    }
  }
  // By id: a call recorded twice (e.g. once per copy after a rewrite) keeps its first position and
  // its last data, like messages do.
  const calls = new Map<string, ToolCall>();
  let unread = 0;
  for (const message of turn) {
    if (message.type !== 'gemini' || !Array.isArray(message.raw['toolCalls'])) continue;
    const timestamp = typeof message.raw['timestamp'] === 'string' ? message.raw['timestamp'] : undefined;
    message.raw['toolCalls'].forEach((entry, index) => {
      const call = buildGeminiToolCall(entry, {
        messageId: message.id,
        index,
        responsesById,
        ...(timestamp !== undefined ? { messageTimestamp: timestamp } : {}),
      });
      if (call) calls.set(call.id, call);
      else unread += 1;
    });
  }
  if (unread > 0) {
    diagnostics?.push({
      level: 'warn',
      code: 'unread-tool-call',
      message: `${unread} tool call entr${unread === 1 ? 'y' : 'ies'} of the turn had no shape the reader knows (no tool name): left out of the timeline.`,
    });
  }
  return [...calls.values()];
}

function lastUserMessageOf(messages: readonly GeminiMessage[]): { lastUserMessage?: string } {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const text = userTextOf(messages[i] as GeminiMessage);
    if (text !== undefined) return { lastUserMessage: text };
  }
  return {};
}

/** `tokenUsage` / `usageHistory` of the timeline, from the package's one usage extraction. */
function usageOf(messages: readonly GeminiMessage[]): { tokenUsage?: TokenUsage; usageHistory?: readonly TokenUsage[] } {
  const history = geminiUsageRecords(messages);
  const last = history.at(-1);
  if (!last) return {};
  return { tokenUsage: last, usageHistory: history.slice(-USAGE_HISTORY_MAX) };
}
