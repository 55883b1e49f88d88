import { assertNever, isDeliveredCheckpoint, readJsonlTail, type JsonlTailResult, type OwnCheckpointRule } from '@agent-checkpoint/core';
import { parsePiEntry, type ForeignAgent, type PiEntry } from './parse-pi-entry.ts';

/** A `message` entry of the session tree. */
export type PiMessageEntry = Extract<PiEntry, { kind: 'message' }>;

/** What the backwards read found: the current branch from the turn's prompt to the newest entry. */
export interface CollectedPiTurn {
  /** Message entries of the current branch, oldest first, starting with {@link boundary} when found. */
  readonly messages: readonly PiMessageEntry[];
  /** The genuine user prompt that opened the turn, when it was in the read window. */
  readonly boundary?: PiMessageEntry;
  /** True when the branch's root entry (no parent) was read: nothing of the branch lies before the window. */
  readonly reachedRoot: boolean;
  /** True when a parent the branch names was never found although the read reached the file's start. */
  readonly parentMissing: boolean;
  /** Entries of the file's tree (Pi's own lines) seen; 0 means the file is not a Pi session, or empty. */
  readonly piEntries: number;
  /** Another agent's lines seen, by agent, when no Pi entry was. */
  readonly foreign?: ForeignAgent;
  readonly tail: JsonlTailResult;
}

/** Options of {@link collectPiTurn}. */
export interface CollectPiTurnOptions {
  readonly maxBytes: number;
  readonly own: OwnCheckpointRule;
  readonly chunkBytes?: number;
  readonly signal?: AbortSignal;
  readonly deadlineAt?: number;
}

/**
 * Read a Pi session file backwards along the current branch of its entry tree, from the newest entry
 * up its `parentId` links, until the turn's opening prompt: a user message that is not our own
 * checkpoint. Entries of abandoned branches (`/tree`, `/fork` write the new branch after them) are
 * passed over: only the newest entry's ancestors are the conversation the model saw.
 */
export function collectPiTurn(path: string, options: CollectPiTurnOptions): CollectedPiTurn {
  const newestFirst: PiMessageEntry[] = [];
  let expected: string | null | undefined; // undefined: no entry seen yet; null: the root was read
  let boundary: PiMessageEntry | undefined;
  let piEntries = 0;
  const foreign = new Map<ForeignAgent, number>();
  const tail = readJsonlTail(path, {
    maxBytes: options.maxBytes,
    ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.deadlineAt !== undefined ? { deadlineAt: options.deadlineAt } : {}),
    visit: (raw) => {
      const entry = parsePiEntry(raw);
      switch (entry.kind) {
        case 'foreign':
          foreign.set(entry.agent, (foreign.get(entry.agent) ?? 0) + 1);
          return 'continue';
        case 'unknown':
          return 'continue';
        case 'header':
          piEntries += 1;
          return 'continue';
        case 'message':
        case 'bookkeeping': {
          piEntries += 1;
          if (expected === null) return 'continue';
          if (expected !== undefined && entry.id !== expected) return 'continue'; // another branch
          expected = entry.parentId;
          if (entry.kind === 'message') {
            newestFirst.push(entry);
            if (entry.message.role === 'user' && !isDeliveredCheckpoint(entry.message.text, options.own)) {
              boundary = entry;
              return 'stop';
            }
          }
          return expected === null ? 'stop' : 'continue';
        }
        default:
          return assertNever(entry);
      }
    },
  });
  const topForeign = [...foreign.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  return {
    messages: newestFirst.reverse(),
    ...(boundary !== undefined ? { boundary } : {}),
    reachedRoot: expected === null,
    parentMissing: tail.reachedStart && typeof expected === 'string',
    piEntries,
    ...(piEntries === 0 && topForeign !== undefined ? { foreign: topForeign } : {}),
    tail,
  };
}
