import { isDeliveredCheckpoint, ownCheckpointRule, readJsonlTail, type CheckpointMessageTexts, type JsonlTailResult } from '@agent-checkpoint/core';
import { classifyClaudeUserEntry, commandInvocation } from './classify-claude-user-entry.ts';
import { guessForeignAgent, parseClaudeLine, type ClaudeEntry, type ClaudeUserEntry } from './parse-claude-entry.ts';
import { skipClaudeBookkeepingLine } from './skip-claude-bookkeeping-line.ts';

const LOCAL_OUTPUT = /^\s*<local-command-(?:stdout|stderr)>/;

/** Arguments of {@link collectClaudeTurn}. */
export interface CollectClaudeTurnOptions {
  readonly maxBytes: number;
  readonly checkpointPrefix: string;
  /** The Stop payload's `prompt_id`; undefined → the last genuine prompt opens the turn. */
  readonly turnId?: string;
  readonly signal?: AbortSignal;
  /** Parsing stops past this time (`Date.now()` clock, ms); see `ReadTurnRequest.deadlineAt`. */
  readonly deadlineAt?: number;
  /** `ReadTurnRequest.deliveredDigests`: which plain messages are our delivered checkpoints. */
  readonly deliveredDigests?: readonly string[];
  /** `ReadTurnRequest.checkpointMessages`: the configured texts, to recognise our messages without digests. */
  readonly checkpointMessages?: Partial<CheckpointMessageTexts>;
  /** Size of each backwards read (tests use small chunks to exercise line splitting). */
  readonly chunkBytes?: number;
  /** Pre-filter; default {@link skipClaudeBookkeepingLine}. `null` parses every line (benchmarks compare). */
  readonly skipLine?: ((line: string) => boolean) | null;
}

/** How the start of the turn was found. */
export type TurnStartKind =
  /** `turnId` given and found: the first user entry carrying it. */
  | 'turn-id'
  /** `turnId` given but absent from the window: fell back to the last genuine prompt. */
  | 'turn-id-not-found'
  /** No `turnId`: the last genuine prompt. */
  | 'last-prompt'
  /** No boundary in the window (capped, aborted, or a file without any prompt). */
  | 'none';

/** What the backwards read collected. */
export interface CollectedClaudeTurn {
  /** Main-chain entries of the window, in file order (oldest first). */
  readonly entries: readonly ClaudeEntry[];
  /** Index in `entries` of the entry that opens the turn; undefined when no boundary was found. */
  readonly startIndex: number | undefined;
  readonly startKind: TurnStartKind;
  /** True when an entry carrying `turnId` was seen (the window holds at least part of that turn). */
  readonly turnIdSeen: boolean;
  readonly tail: JsonlTailResult;
  /** Lines recognised as Claude's (chain entries, sidechain entries, bookkeeping, pre-filtered lines). */
  readonly claudeLines: number;
  /** Valid JSON lines that look like no Claude transcript line (another agent's format). */
  readonly foreignLines: number;
  /** Which agent the foreign lines look like, when recognisable. */
  readonly foreignAgent?: 'codex' | 'gemini';
  /**
   * Slash-command and skill echoes (`<command-name>`) the model answered: they open a turn like a
   * prompt, whatever prompt id Claude gave them (see {@link isTurnOpening}).
   */
  readonly commandPrompts: ReadonlySet<ClaudeEntry>;
}

/** True when `entry` opens a turn: a genuine prompt, or a slash command / skill the model answered. */
export function isTurnOpening(entry: ClaudeEntry, collected: Pick<CollectedClaudeTurn, 'commandPrompts'>, checkpointPrefix: string): entry is ClaudeUserEntry {
  if (entry.kind !== 'user') return false;
  return classifyClaudeUserEntry(entry, checkpointPrefix) === 'prompt' || collected.commandPrompts.has(entry);
}

/**
 * Read the transcript backwards from its end, keeping main-chain entries, and stop at the turn
 * boundary so that no earlier byte is read:
 *
 * - with a `turnId`: at the genuine prompt carrying it; or, when the turn did not start with a
 *   genuine prompt (e.g. `/compact`), at the previous genuine prompt, the turn then starting at the
 *   first entry carrying the id. A genuine prompt of another id seen *before* the id is remembered as
 *   a fallback and the search continues (a task notification may already follow the turn);
 * - without: at the last genuine prompt (see {@link classifyClaudeUserEntry}).
 *
 * Never reads more than `maxBytes`. I/O errors propagate (the caller turns them into diagnostics).
 */
export function collectClaudeTurn(path: string, options: CollectClaudeTurnOptions): CollectedClaudeTurn {
  const newestFirst: ClaudeEntry[] = [];
  const { turnId, checkpointPrefix } = options;
  let claudeLines = 0;
  let foreignLines = 0;
  let foreignAgent: 'codex' | 'gemini' | undefined;
  let earliestWithTurnId = -1;
  let fallbackPrompt = -1;
  let boundary = -1;
  const commandPrompts = new Set<ClaudeEntry>();
  const own = ownCheckpointRule({
    checkpointPrefix,
    ...(options.deliveredDigests ? { deliveredDigests: options.deliveredDigests } : {}),
    ...(options.checkpointMessages ? { checkpointMessages: options.checkpointMessages } : {}),
  });
  // An assistant entry lies between the entry being visited and the next newer turn opening.
  let answered = false;
  // …and a local command's output echo lies there too (the command ran in Claude Code, not the model).
  let localOutput = false;

  const tail = readJsonlTail(path, {
    maxBytes: options.maxBytes,
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(typeof options.deadlineAt === 'number' ? { deadlineAt: options.deadlineAt } : {}),
    ...(options.skipLine === null ? {} : { skipLine: options.skipLine ?? skipClaudeBookkeepingLine }),
    visit: (raw) => {
      const parsed = parseClaudeLine(raw);
      if (parsed.kind === 'foreign') {
        foreignLines += 1;
        // The first few foreign lines name the agent if any can: guessing on every line of a long
        // foreign tail only costs time.
        if (foreignLines <= 16) foreignAgent ??= guessForeignAgent(raw);
        return 'continue';
      }
      claudeLines += 1;
      if (parsed.kind === 'ignored-claude') return 'continue';
      const parsedEntry = parsed.entry;
      const entry =
        parsedEntry.kind === 'user' && parsedEntry.text !== undefined
          ? { ...parsedEntry, ours: isDeliveredCheckpoint(parsedEntry.text, own) }
          : parsedEntry;
      newestFirst.push(entry);
      if (entry.kind === 'assistant') answered = true;
      if (entry.kind !== 'user') return 'continue';
      const index = newestFirst.length - 1;
      const role = classifyClaudeUserEntry(entry, checkpointPrefix);
      if (role === 'command-echo' && LOCAL_OUTPUT.test(entry.text ?? '')) localOutput = true;
      // A slash command or skill the model answered opens a turn even when it reuses the previous
      // prompt id (its echo has no `promptSource`); a local command (its output echoed) does not.
      const isCommand = role === 'command-echo' && answered && !localOutput && commandInvocation(entry) !== undefined;
      if (isCommand) commandPrompts.add(entry);
      const isPrompt = role === 'prompt' || isCommand;
      if (isPrompt) {
        answered = false;
        localOutput = false;
      }
      if (turnId === undefined) {
        if (!isPrompt) return 'continue';
        boundary = index;
        return 'stop';
      }
      if (entry.promptId === turnId) {
        earliestWithTurnId = index;
        if (!isPrompt) return 'continue';
        boundary = index;
        return 'stop';
      }
      if (!isPrompt) return 'continue';
      if (earliestWithTurnId !== -1) {
        boundary = earliestWithTurnId;
        return 'stop';
      }
      if (fallbackPrompt === -1) fallbackPrompt = index;
      return 'continue';
    },
  });

  let startKind: TurnStartKind;
  if (turnId === undefined) {
    startKind = boundary === -1 ? 'none' : 'last-prompt';
  } else if (boundary !== -1) {
    startKind = 'turn-id';
  } else if (earliestWithTurnId !== -1 && tail.reachedStart) {
    // The whole file was read: the first entry with the id opens the turn.
    boundary = earliestWithTurnId;
    startKind = 'turn-id';
  } else if (earliestWithTurnId !== -1) {
    startKind = 'none';
  } else if (fallbackPrompt !== -1) {
    boundary = fallbackPrompt;
    startKind = 'turn-id-not-found';
  } else {
    startKind = 'none';
  }

  const entries = newestFirst.reverse();
  return {
    entries,
    startIndex: boundary === -1 ? undefined : entries.length - 1 - boundary,
    startKind,
    turnIdSeen: earliestWithTurnId !== -1,
    tail,
    claudeLines: claudeLines + tail.skippedLines,
    foreignLines,
    ...(foreignAgent ? { foreignAgent } : {}),
    commandPrompts,
  };
}
