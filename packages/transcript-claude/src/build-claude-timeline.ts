import type { TimelineDiagnostic, TokenUsage, ToolCall, TurnHint, TurnTimeline } from '@agent-checkpoint/core';
import { buildClaudeToolCall, unreadShellResultDiagnostic, type ExcerptBudget } from './build-claude-tool-call.ts';
import { classifyClaudeUserEntry, commandInvocation, extractCheckpointText, isTaskNotificationPrompt } from './classify-claude-user-entry.ts';
import { isTurnOpening, type CollectedClaudeTurn } from './collect-claude-turn.ts';
import type { ClaudeEntry, ClaudeToolResult, ClaudeUserEntry } from './parse-claude-entry.ts';
import { claudeUsageRecords } from './claude-usage-records.ts';
import { findClaudeSubagentRefs, type ClaudeSubagentRef, type TimedClaudeToolUse } from './read-claude-subagents.ts';

/** Longest prompt text kept on the timeline. */
export const PROMPT_MAX_CHARS = 2000;
/** Most usage records kept in `usageHistory`. */
export const USAGE_HISTORY_MAX = 20;

/** Arguments of {@link buildClaudeTimeline}. */
export interface BuildClaudeTimelineInput {
  readonly collected: CollectedClaudeTurn;
  readonly checkpointPrefix: string;
  readonly maxBytes: number;
  readonly hint?: TurnHint;
  readonly excerpt?: ExcerptBudget;
}

/** The timeline plus what the flush wait needs to know about the file itself. */
export interface BuiltClaudeTimeline {
  readonly timeline: TurnTimeline;
  /**
   * The final text the file holds for the turn, in the forms the hook's `last_assistant_message` may
   * take: the last assistant entry's text, and all text entries of that response joined. Empty when
   * the turn's last assistant entry has no text (a tool call) or there is none.
   */
  readonly fileFinalAssistantTexts: readonly string[];
  /** The subagents whose transcripts hold part of the turn (read afterwards, see `readClaudeSubagents`). */
  readonly subagents: readonly ClaudeSubagentRef[];
}

/**
 * Turn what {@link collectClaudeTurn} gathered into a {@link TurnTimeline}: tool calls of the turn
 * paired with their results by `tool_use_id`, our delivered checkpoints, the last messages and the
 * token usage of the window. Pure: no I/O.
 */
export function buildClaudeTimeline(input: BuildClaudeTimelineInput): BuiltClaudeTimeline {
  const { collected, checkpointPrefix, hint } = input;
  const { entries, tail } = collected;
  const diagnostics: TimelineDiagnostic[] = [];
  const readStats = { bytesRead: tail.bytesRead, fileBytes: tail.fileSize };

  const noData = (diagnostic: TimelineDiagnostic): BuiltClaudeTimeline => ({
    fileFinalAssistantTexts: [],
    subagents: [],
    timeline: {
      agent: 'claude',
      hasData: false,
      calls: [],
      checkpointsDelivered: 0,
      truncated: false,
      readStats,
      diagnostics: [...diagnostics, diagnostic],
    },
  });

  if (collected.claudeLines === 0) return noData(describeNonClaudeFile(collected, input.maxBytes));
  if (tail.corruptLines > 0) {
    diagnostics.push({
      level: 'info',
      code: 'corrupt-line',
      message: `${tail.corruptLines} line(s) that are not valid JSON were skipped (corrupt, or still being written).`,
    });
  }
  const hasConversation = entries.some((entry) => entry.kind === 'user' || entry.kind === 'assistant');
  if (!hasConversation) {
    if (tail.aborted) return noData(abortDiagnostic(tail.deadlineReached, 'before any turn entry was found.'));
    if (tail.capped) {
      return noData({
        level: 'warn',
        code: 'cap-reached',
        message: `No user or assistant entry within the last ${input.maxBytes} bytes of the transcript.`,
      });
    }
    return noData({ level: 'info', code: 'no-turn', message: 'The transcript holds no main-agent user or assistant entry.' });
  }

  // Where the turn starts.
  let start = collected.startIndex;
  let truncated = false;
  if (start === undefined) {
    start = 0;
    if (tail.aborted) {
      truncated = true;
      diagnostics.push(abortDiagnostic(tail.deadlineReached, 'before the start of the turn: the timeline holds only its tail.'));
    } else if (tail.capped) {
      truncated = true;
      diagnostics.push({
        level: 'warn',
        code: 'cap-reached',
        message: `The start of the turn lies beyond the last ${input.maxBytes} bytes read: the timeline holds only the tail of the turn.`,
      });
    } else {
      diagnostics.push({ level: 'info', code: 'no-prompt', message: 'No genuine user prompt in the transcript: the whole file is treated as the turn.' });
    }
  }
  if (collected.startKind === 'turn-id-not-found') {
    diagnostics.push({
      level: 'warn',
      code: 'turn-not-found',
      message: `No entry carries prompt id ${hint?.turnId ?? ''} within the bytes read: used the last genuine prompt instead.`,
    });
  }

  const startEntry = collected.startIndex === undefined ? undefined : entries[start];
  const startUser = startEntry?.kind === 'user' ? startEntry : undefined;
  const startIsPrompt = startUser !== undefined && isTurnOpening(startUser, collected, checkpointPrefix);
  const startCommand = startUser !== undefined && collected.commandPrompts.has(startUser) ? commandInvocation(startUser) : undefined;
  const turnKey = startUser?.promptId ?? (collected.turnIdSeen ? hint?.turnId : undefined);
  // A command turn may carry the previous turn's prompt id: its identity adds the uuid of the echo
  // that opens it, so the loop guard does not count it as the turn that already got a checkpoint.
  const turnId = startUser !== undefined && collected.commandPrompts.has(startUser) && startUser.uuid !== '' ? (turnKey !== undefined ? `${turnKey}#${startUser.uuid}` : startUser.uuid) : turnKey;
  if (startUser && startIsPrompt && isTaskNotificationPrompt(startUser)) {
    diagnostics.push({
      level: 'info',
      code: 'task-notification-turn',
      message: 'The turn was started by Claude itself when a background task finished, not by a user prompt.',
    });
  }

  // The turn runs until the next genuine prompt of another turn (only possible with a prompt id).
  let end = entries.length;
  for (let index = start + 1; index < entries.length; index += 1) {
    const entry = entries[index];
    if (entry === undefined || !isTurnOpening(entry, collected, checkpointPrefix)) continue;
    if (entry.promptId === undefined || entry.promptId !== turnKey || collected.commandPrompts.has(entry)) {
      end = index;
      break;
    }
  }

  const uses: TimedClaudeToolUse[] = [];
  const seenUseIds = new Set<string>();
  const results = new Map<string, ClaudeToolResult>();
  let checkpointsDelivered = 0;
  let lastAssistantIndex = -1;
  for (let index = start; index < end; index += 1) {
    const entry = entries[index];
    if (!entry) continue;
    if (entry.kind === 'assistant') {
      lastAssistantIndex = index;
      for (const use of entry.toolUses) {
        // Ids are unique per timeline; a duplicated tool_use (self-healed transcript) is one call.
        if (seenUseIds.has(use.id)) continue;
        seenUseIds.add(use.id);
        uses.push({ use, timestamp: entry.timestamp });
      }
      for (const result of entry.serverToolResults ?? []) {
        if (!results.has(result.toolUseId)) results.set(result.toolUseId, result);
      }
    } else if (entry.kind === 'user') {
      if (classifyClaudeUserEntry(entry, checkpointPrefix) === 'checkpoint') checkpointsDelivered += 1;
      for (const result of entry.toolResults) {
        if (!results.has(result.toolUseId)) results.set(result.toolUseId, result);
      }
    }
  }
  const calls: ToolCall[] = uses.map(({ use, timestamp }) =>
    buildClaudeToolCall(use, results.get(use.id), timestamp, input.excerpt),
  );
  const unread = unreadShellResultDiagnostic(calls, results);
  if (unread) diagnostics.push(unread);

  const fileFinalAssistantTexts = finalAssistantTexts(entries, lastAssistantIndex);
  const lastAssistantMessage = nonEmpty(hint?.lastAssistantMessage) ?? lastAssistantTextOfTurn(entries, start, end);
  const lastUserMessage = findLastUserMessage(entries, checkpointPrefix);
  const usage = claudeUsageRecords(entries);
  const newestWithCwd = findLast(entries, (entry) => entry.cwd !== undefined);
  const newestWithVersion = findLast(entries, (entry) => entry.version !== undefined);

  const timeline: TurnTimeline = {
    agent: 'claude',
    hasData: true,
    ...(turnId !== undefined ? { turnId } : startUser ? { turnId: startUser.uuid } : {}),
    ...(startEntry?.timestamp !== undefined ? { startedAt: startEntry.timestamp } : {}),
    ...(startIsPrompt && startUser?.text !== undefined ? { prompt: clip(startCommand ?? startUser.text, PROMPT_MAX_CHARS) } : {}),
    calls,
    checkpointsDelivered,
    ...(lastUserMessage !== undefined ? { lastUserMessage } : {}),
    ...(lastAssistantMessage !== undefined ? { lastAssistantMessage } : {}),
    ...(usage.length > 0 ? { tokenUsage: usage[usage.length - 1] as TokenUsage, usageHistory: usage.slice(-USAGE_HISTORY_MAX) } : {}),
    truncated,
    ...(newestWithCwd?.cwd !== undefined ? { cwd: newestWithCwd.cwd } : {}),
    ...(newestWithVersion?.version !== undefined ? { cliVersion: newestWithVersion.version } : {}),
    readStats,
    diagnostics,
  };
  const taskNotice = startUser && startIsPrompt && isTaskNotificationPrompt(startUser) ? startUser.text : undefined;
  return { timeline, fileFinalAssistantTexts, subagents: findClaudeSubagentRefs(uses, results, taskNotice) };
}

function describeNonClaudeFile(collected: CollectedClaudeTurn, maxBytes: number): TimelineDiagnostic {
  const { tail, foreignLines, foreignAgent } = collected;
  // Cut short, the read may not have reached a single line of this agent's yet.
  if (tail.aborted) return abortDiagnostic(tail.deadlineReached, 'before any entry was read.');
  if (foreignLines > 0) {
    const which = foreignAgent === 'codex' ? ' (it looks like a Codex CLI rollout)' : foreignAgent === 'gemini' ? ' (it looks like a Gemini CLI session)' : '';
    return {
      level: 'warn',
      code: 'wrong-agent',
      message: `The file holds JSON lines but no Claude Code transcript entry${which}.`,
    };
  }
  if (tail.corruptLines > 0) {
    return { level: 'warn', code: 'unknown-format', message: 'No line of the file is valid JSON: not a Claude Code transcript.' };
  }
  if (tail.capped) {
    return {
      level: 'warn',
      code: 'cap-reached',
      message: `No complete line within the last ${maxBytes} bytes (a single line is larger than the read cap).`,
    };
  }
  return { level: 'info', code: 'empty-file', message: 'The transcript file has no entries yet.' };
}

/** Why reading ended early: the caller's signal (`aborted`) or the hook's deadline while parsing (`deadline`). */
function abortDiagnostic(deadlineReached: boolean, what: string): TimelineDiagnostic {
  return deadlineReached
    ? { level: 'warn', code: 'deadline', message: `The hook's deadline passed ${what}` }
    : { level: 'warn', code: 'aborted', message: `Reading was aborted ${what}` };
}

/** The last assistant entry's text, and the text of its whole response (one entry per block). */
function finalAssistantTexts(entries: readonly ClaudeEntry[], lastAssistantIndex: number): string[] {
  const last = entries[lastAssistantIndex];
  if (last?.kind !== 'assistant' || last.text === undefined) return [];
  if (last.messageId === undefined) return [last.text];
  const parts: string[] = [];
  for (let index = lastAssistantIndex; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry?.kind !== 'assistant') continue;
    if (entry.messageId !== last.messageId) break;
    if (entry.text !== undefined) parts.unshift(entry.text);
  }
  return parts.length > 1 ? [last.text, parts.join('\n\n')] : [last.text];
}

function lastAssistantTextOfTurn(entries: readonly ClaudeEntry[], start: number, end: number): string | undefined {
  for (let index = end - 1; index >= start; index -= 1) {
    const entry = entries[index];
    if (entry?.kind === 'assistant' && entry.text !== undefined && entry.text.trim().length > 0) return entry.text;
  }
  return undefined;
}

/**
 * The newest user-role message of the window, whatever its origin: a prompt, a prompt typed
 * mid-turn (`queued_command`), hook feedback… Tool-result-only entries are not messages. One of our
 * checkpoints is returned as the checkpoint text itself (starting with the prefix), without Claude's
 * `Stop hook feedback:` wrapper, so callers can test it the same way for every agent.
 */
function findLastUserMessage(entries: readonly ClaudeEntry[], checkpointPrefix: string): string | undefined {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry?.kind === 'queued-prompt') return entry.text;
    if (entry?.kind !== 'user' || entry.text === undefined) continue;
    return extractCheckpointText(entry.text, checkpointPrefix) ?? entry.text;
  }
  return undefined;
}

function findLast(entries: readonly ClaudeEntry[], predicate: (entry: ClaudeEntry) => boolean): ClaudeEntry | undefined {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry && predicate(entry)) return entry;
  }
  return undefined;
}

function nonEmpty(text: string | undefined): string | undefined {
  return text !== undefined && text.trim().length > 0 ? text : undefined;
}

/** First `max` UTF-16 units, never splitting a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

export type { ClaudeUserEntry };
