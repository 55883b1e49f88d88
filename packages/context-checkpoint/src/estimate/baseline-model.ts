import type { TaskFeatures } from './task-features.ts';

/** Which signal moved an estimate, and by how much. */
export interface EstimateReason {
  readonly signal: 'base' | 'prompt' | 'paths' | 'bullets' | 'plan-items' | 'broad-scope' | 'narrow-scope' | 'history';
  /** Human-readable, e.g. `3 file/path mentions`. */
  readonly detail: string;
  /** Tokens this signal added (negative when it lowered the estimate). */
  readonly tokens: number;
}

/**
 * Weights of the baseline model, in context tokens. Deliberately conservative (seed 004: "start
 * conservative"): a turn that reads a file and edits it grows the context by several thousand tokens.
 * The project's history corrects the scale. Plan items are not a weight here: each is priced as a task
 * of its own (`priceItems`), so a plan costs the same wherever it is priced.
 */
export const BASELINE_WEIGHTS = {
  /** Any turn: system reminders, a file read, an edit, the answer. */
  base: 8_000,
  /** The prompt itself, at ~4 characters per token. */
  charsPerToken: 4,
  perPathMention: 5_000,
  perBulletItem: 6_000,
  /** Each broad-scope word multiplies by 1 + this, up to {@link BASELINE_WEIGHTS.maxBroadFactor}. */
  perBroadWord: 0.3,
  maxBroadFactor: 2.2,
  /** Applied once when narrow words appear and no broad word does. */
  narrowFactor: 0.75,
} as const;

/** The baseline estimate: additive counts, then scope factors. Pure, monotone in every count; `planOpenItems` is not read. */
export interface BaselineEstimate {
  readonly tokens: number;
  readonly reasons: readonly EstimateReason[];
}

export function baselineEstimate(features: TaskFeatures): BaselineEstimate {
  const w = BASELINE_WEIGHTS;
  const reasons: EstimateReason[] = [{ signal: 'base', detail: 'any turn', tokens: w.base }];
  let tokens = w.base;
  const add = (signal: EstimateReason['signal'], count: number, per: number, detail: string): void => {
    if (count <= 0) return;
    const added = Math.round(count * per);
    tokens += added;
    reasons.push({ signal, detail, tokens: added });
  };
  add('prompt', features.promptChars, 1 / w.charsPerToken, `prompt of ${features.promptChars} characters`);
  add('paths', features.pathMentions, w.perPathMention, `${plural(features.pathMentions, 'file/path mention')}`);
  add('bullets', features.bulletItems, w.perBulletItem, `${plural(features.bulletItems, 'list item')} in the prompt`);

  if (features.broadScope > 0) {
    const factor = Math.min(w.maxBroadFactor, 1 + w.perBroadWord * features.broadScope);
    const added = Math.round(tokens * (factor - 1));
    tokens += added;
    reasons.push({ signal: 'broad-scope', detail: `${plural(features.broadScope, 'broad-scope word')} (×${factor.toFixed(2)})`, tokens: added });
  } else if (features.narrowScope > 0) {
    const removed = Math.round(tokens * (1 - w.narrowFactor));
    tokens -= removed;
    reasons.push({ signal: 'narrow-scope', detail: `narrow-scope wording (×${w.narrowFactor})`, tokens: -removed });
  }
  return { tokens, reasons };
}

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
