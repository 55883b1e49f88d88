import type { CodexRecord } from './codex-record.ts';
import { classifyUserText } from './classify-user-text.ts';

/**
 * Decides, while the rollout is read backwards (newest line first), when the start of the turn we
 * need has been seen, so that no earlier byte is read.
 *
 * The turn we need is the *genuine* turn: the hinted turn (`hint.turnId`) or, without a hint, the last
 * turn with a genuine user message. When the hinted turn has no genuine user message (an injected
 * checkpoint turn, or a turn with no user message at all) it continues the previous genuine turn, so
 * reading goes on to that turn's start. Reading stops at the `task_started` line of the genuine turn:
 * by then every later line (including the genuine user message, which follows `task_started`) has
 * been seen.
 *
 * Older rollouts are handled by position: a `task_started` closes the segment of id-less lines after
 * it (some versions put turn ids on events but not on messages), and reading stops there when that
 * segment has a genuine message. Rollouts with no `task_started` at all (the oldest) have no reliable
 * boundary line; they are read up to the byte cap or the start of the file and grouped in the
 * forward pass (`group-codex-turns.ts`).
 */
export class TurnBoundaryTracker {
  readonly #hint: string | undefined;
  readonly #checkpointPrefix: string;
  /** Turn ids whose genuine user message has been seen (lines after their start). */
  readonly #genuineTurns = new Set<string>();
  /** True once the hinted turn's `task_started` has been seen: earlier turns may now be the boundary. */
  #hintStarted = false;
  /** A genuine message without turn id has been seen since the last id-less `task_started`. */
  #positionalGenuine = false;
  #sawTurnId = false;

  constructor(hintTurnId: string | undefined, checkpointPrefix: string) {
    this.#hint = hintTurnId && hintTurnId.trim() !== '' ? hintTurnId : undefined;
    this.#checkpointPrefix = checkpointPrefix;
  }

  /** Feed the records of one line (newest line first). Returns true when reading can stop. */
  visit(records: readonly CodexRecord[]): boolean {
    let stop = false;
    for (const record of records) {
      if (record.turnId !== undefined) this.#sawTurnId = true;
      if (record.type === 'user-text' && classifyUserText(record, this.#checkpointPrefix) === 'genuine') {
        if (record.turnId !== undefined) this.#genuineTurns.add(record.turnId);
        else this.#positionalGenuine = true;
      } else if (record.type === 'turn-start') {
        stop = this.#atTurnStart(record.turnId) || stop;
      }
    }
    return stop;
  }

  #atTurnStart(turnId: string | undefined): boolean {
    if (turnId === undefined) {
      const genuine = this.#positionalGenuine;
      this.#positionalGenuine = false;
      // A hint can only match a turn id; in an id-less rollout it is unusable, so stop like without one.
      return genuine && (this.#hint === undefined || this.#hintStarted || !this.#sawTurnId);
    }
    // Id-less lines after a `task_started` belong to it (versions that tagged events but not messages).
    const genuine = this.#genuineTurns.has(turnId) || this.#positionalGenuine;
    this.#positionalGenuine = false;
    if (genuine) this.#genuineTurns.add(turnId);
    if (this.#hint === undefined) return genuine;
    if (turnId === this.#hint) {
      this.#hintStarted = true;
      return genuine;
    }
    // A turn before the hinted one ends the search once it is genuine; turns after it are skipped.
    return this.#hintStarted && genuine;
  }
}
