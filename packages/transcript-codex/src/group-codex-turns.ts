import type { CodexRecord, HookPromptRecord, MessageSource, TurnStartRecord, UserTextRecord } from './codex-record.ts';
import { classifyUserText, startsWithPrefix, type UserTextClass } from './classify-user-text.ts';

/** One Codex turn as seen in the read window. */
export interface CodexTurn {
  /** The turn id, or a synthetic `#…` key for id-less (older) turns grouped by position. */
  readonly key: string;
  readonly records: CodexRecord[];
  start?: TurnStartRecord;
  /** True when the turn's first line is inside the read window (its start marker or opening message). */
  openedInWindow: boolean;
  /** Has tool or assistant activity (used to split id-less turns at the next genuine message). */
  hasActivity: boolean;
}

/** A user message of a turn with its class (from the turn's most reliable message source). */
export interface ClassifiedUserText {
  readonly record: UserTextRecord;
  readonly kind: UserTextClass;
}

/**
 * Assign every record to a turn.
 *
 * - Lines with a turn id belong to that turn, wherever they appear: 0.169 appends a background
 *   command's `CommandExecution` *after* `turn_aborted`, still tagged with the aborted turn.
 * - Lines without one (older versions, and bookkeeping such as `token_count`) belong to the turn
 *   opened last by position: a `task_started` line, or, in rollouts that have no `task_started` at
 *   all, a genuine user message that follows tool or assistant activity. In that oldest form a
 *   mid-turn steer cannot be told from a new prompt and starts a new turn.
 * - Lines before the first opening line of a window that starts mid-file go to the turn named by the
 *   first turn id among them (the turn the byte cap cut), else to `#window-start`.
 * - A rollout with turn markers or turn ids anywhere in the window is grouped by markers only.
 *
 * Turns are returned oldest first: turns opened before the window, then the others in order.
 */
export function groupCodexTurns(records: readonly CodexRecord[], checkpointPrefix: string, windowComplete: boolean): CodexTurn[] {
  const turns = new Map<string, CodexTurn>();
  // A rollout that writes `task_started` or turn ids anywhere in the window writes them for every
  // turn: its turns start at `task_started`, never at a user message (a steer typed while the turn
  // runs is a second message of the same turn), even when the byte cap cut the current turn's start
  // off. A turn end alone proves nothing: 0.40 wrote `turn_aborted` but no `task_started`.
  const markerMode = records.some((record) => record.type === 'turn-start' || record.turnId !== undefined);
  // Lines before the window's first `task_started` belong to the turn the cap cut: the first turn id
  // seen there names it (0.169 and the legacy-event versions tag only some lines with it).
  let current: string | undefined = windowStartTurn(records);

  const ensure = (key: string, opened: boolean): CodexTurn => {
    let turn = turns.get(key);
    if (!turn) {
      turn = { key, records: [], openedInWindow: opened || windowComplete, hasActivity: false };
      turns.set(key, turn);
    }
    return turn;
  };

  for (const record of records) {
    let turn: CodexTurn;
    if (record.type === 'turn-start') {
      const key = record.turnId ?? `#start@${record.offset}`;
      turn = ensure(key, true);
      turn.start ??= record;
      turn.openedInWindow = true;
      current = key;
    } else if (record.turnId !== undefined) {
      turn = ensure(record.turnId, false);
    } else if (
      !markerMode &&
      record.type === 'user-text' &&
      classifyUserText(record, checkpointPrefix) === 'genuine' &&
      (current === undefined || turns.get(current)?.hasActivity === true)
    ) {
      current = `#user@${record.offset}`;
      turn = ensure(current, true);
    } else {
      current ??= '#window-start';
      turn = ensure(current, false);
    }
    turn.records.push(record);
    if (isTurnActivity(record)) turn.hasActivity = true;
  }
  // A turn whose opening line is not in the window and that has no message of its own is either the
  // turn cut by the byte cap or an older turn whose late items (a background command finishing after
  // `turn_aborted`) appear after newer turns began: it comes first in turn order. A turn with
  // messages but no opening line (a corrupt `task_started`) keeps its place.
  const all = [...turns.values()];
  const earlier = (turn: CodexTurn): boolean =>
    !turn.openedInWindow && !turn.records.some((record) => record.type === 'user-text' || record.type === 'hook-prompt');
  return [...all.filter(earlier), ...all.filter((turn) => !earlier(turn))];
}

/** The turn id of the first id-tagged record before the window's first `task_started`, if any. */
function windowStartTurn(records: readonly CodexRecord[]): string | undefined {
  for (const record of records) {
    if (record.type === 'turn-start') return undefined;
    if (record.turnId !== undefined) return record.turnId;
  }
  return undefined;
}

/** Tool or assistant activity: what a turn does after its prompt (a steer always follows some). */
export function isTurnActivity(record: CodexRecord): boolean {
  switch (record.type) {
    case 'call':
    case 'call-output':
    case 'command-result':
    case 'patch-result':
    case 'item-tool':
    case 'assistant-text':
    case 'turn-end':
      return true;
    default:
      return false;
  }
}

const SOURCE_RANK: Record<MessageSource, number> = { item: 3, event: 2, response: 1 };

/**
 * The turn's user messages, classified, from its most reliable source only. Codex writes each message
 * more than once (0.169: `response_item message` and `item_completed UserMessage`; older: `response_item`
 * and `event_msg user_message`), so counting all forms would double-count.
 */
export function userTextsOf(turn: CodexTurn, checkpointPrefix: string): ClassifiedUserText[] {
  const texts = turn.records.filter((record): record is UserTextRecord => record.type === 'user-text');
  const best = bestSource(texts);
  return texts
    .filter((record) => record.source === best)
    .map((record) => ({ record, kind: classifyUserText(record, checkpointPrefix) }));
}

/** The turn's Stop-hook prompts, from its most reliable source only (`HookPrompt` items in 0.169). */
export function hookPromptsOf(turn: CodexTurn): HookPromptRecord[] {
  const prompts = turn.records.filter((record): record is HookPromptRecord => record.type === 'hook-prompt');
  const best = bestSource(prompts);
  return prompts.filter((record) => record.source === best);
}

function bestSource(records: readonly { readonly source: MessageSource }[]): MessageSource | undefined {
  let best: MessageSource | undefined;
  for (const record of records) {
    if (best === undefined || SOURCE_RANK[record.source] > SOURCE_RANK[best]) best = record.source;
  }
  return best;
}

/** True when the turn has a genuine user message. */
export function isGenuineTurn(turn: CodexTurn, checkpointPrefix: string): boolean {
  return userTextsOf(turn, checkpointPrefix).some((text) => text.kind === 'genuine');
}

/** How many of our checkpoints reached this turn: prefixed user messages and prefixed hook prompts. */
export function countCheckpoints(turn: CodexTurn, checkpointPrefix: string): number {
  const typed = userTextsOf(turn, checkpointPrefix).filter((text) => text.kind === 'checkpoint').length;
  const hooked = hookPromptsOf(turn)
    .flatMap((record) => record.texts)
    .filter((text) => startsWithPrefix(text, checkpointPrefix)).length;
  return typed + hooked;
}

/** Result of {@link selectTurnSpan}. */
export interface TurnSpan {
  /** The turns whose calls make up the timeline, oldest first. */
  readonly turns: readonly CodexTurn[];
  /** The turn with the genuine user prompt that opened the span, when it is in the window. */
  readonly genuine?: CodexTurn;
  /** The hint named a turn that is not in the read window. */
  readonly hintMissed: boolean;
}

/**
 * Choose the turns that make up "the turn that just ended".
 *
 * The target is `hintTurnId` when that turn is in the window, else the last genuine turn. A target
 * without a genuine user message (our checkpoint typed into the TUI, which Codex runs as a new turn)
 * continues the previous genuine turn: the span reaches back to it, so evidence produced in answer to
 * a checkpoint counts for the task the user asked for. Without a hint, every turn after the last
 * genuine one is part of the span too (they are all continuations).
 */
export function selectTurnSpan(turns: readonly CodexTurn[], checkpointPrefix: string, hintTurnId: string | undefined): TurnSpan | undefined {
  if (turns.length === 0) return undefined;
  const genuine = turns.map((turn) => isGenuineTurn(turn, checkpointPrefix));
  const hinted = hintTurnId === undefined ? -1 : turns.findIndex((turn) => turn.key === hintTurnId);
  const hintMissed = hintTurnId !== undefined && hinted < 0;

  let end: number;
  let target: number;
  if (hinted >= 0) {
    end = hinted;
    target = hinted;
  } else {
    end = turns.length - 1;
    target = genuine.lastIndexOf(true);
    if (target < 0) target = end;
  }
  let start = target;
  // Walk back over continuation turns, but only when the target's own start is in the window: a turn
  // cut by the byte cap may have had its genuine message before the cut.
  if (!genuine[target] && turns[target]?.openedInWindow) {
    while (start > 0 && !genuine[start]) start -= 1;
  }
  const span = turns.slice(start, end + 1);
  const first = turns[start];
  return {
    turns: span,
    ...(first && genuine[start] ? { genuine: first } : {}),
    hintMissed,
  };
}
