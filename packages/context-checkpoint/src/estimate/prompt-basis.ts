import type { PlanItem } from './parse-plan-items.ts';

/** The plan a prompt may refer to: its file and its open items (the current shard's, once sharded). */
export interface PlanInScope {
  /** Repository-relative path of the plan (or the current shard file), for "the prompt names the file". */
  readonly files: readonly string[];
  /** Open items in plan order; the first is the current item. */
  readonly openItems: readonly PlanItem[];
  /** True when the caller asked for the plan itself (`estimate --plan`): an unrelated prompt then prices the plan. */
  readonly requested?: boolean;
}

/** Why the basis was chosen; shown in `estimate`'s reasons and kept in the pending estimate. */
export type PromptBasis =
  | { readonly kind: 'prompt'; readonly why: 'no-plan' | 'no-open-items' | 'not-about-the-plan' }
  | { readonly kind: 'current-item'; readonly why: 'acknowledgement' | 'next-item'; readonly items: readonly [PlanItem] }
  | { readonly kind: 'items'; readonly why: 'named'; readonly items: readonly PlanItem[] }
  | { readonly kind: 'plan'; readonly why: 'plan-named' | 'plan-requested'; readonly items: readonly PlanItem[] };

/** Longest prompt, in words, read as an acknowledgement ("yes", "ok go on", "sounds good, continue"). */
export const MAX_ACK_WORDS = 6;

/** Words an acknowledgement is made of, and nothing else. */
const ACK_WORDS: ReadonlySet<string> = new Set([
  'yes', 'y', 'yep', 'yeah', 'yup', 'ok', 'okay', 'k', 'sure', 'fine', 'right', 'correct', 'agreed', 'approve', 'approved',
  'go', 'on', 'ahead', 'for', 'it', 'do', 'continue', 'proceed', 'next', 'carry', 'keep', 'going', 'please', 'thanks',
  'thank', 'you', 'lgtm', 'sounds', 'good', 'great', 'perfect', 'lets', "let's", 'looks',
]);

/** "the next item", "current task", "next todo", "next step", "next one". */
const NEXT_ITEM = /\b(?:next|current)\s+(?:plan\s+)?(?:item|task|todo|step|one|box|checkbox)\b/i;
/** The plan as a whole: "the plan", "plan file", "rest of the plan", "remaining items", "all (open) items"… */
const WHOLE_PLAN = /\b(?:the\s+(?:whole\s+|entire\s+|full\s+|rest\s+of\s+the\s+)?plan|plan\s+file|remaining\s+(?:plan\s+)?(?:items|tasks)|(?:all|every)\s+(?:the\s+)?(?:open\s+|remaining\s+|plan\s+)?items?|the\s+(?:todo\s+list|checklist))\b/i;
/** An item id such as `RLP-006`, `ABC-12`. */
const ITEM_ID = /\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b/g;
/** Item text shorter than this is not matched as text (too easy to hit by accident). */
export const MIN_ITEM_TEXT_MATCH = 16;

/**
 * What a prompt asks to be estimated (issue 21, "estimate the prompt, not the plan"). Deterministic,
 * in this order (first match wins):
 *
 * 1. no plan, or no open item → the prompt alone;
 * 2. the prompt names plan items, by id (`RLP-006` in the item's text) or by the item's text (at least
 *    {@link MIN_ITEM_TEXT_MATCH} characters) → those items;
 * 3. the prompt is only an acknowledgement (at most {@link MAX_ACK_WORDS} words, all from a fixed list:
 *    "yes", "ok", "go on", "continue"…) or says "next item" / "current task" → the current item (the
 *    first open one): "yes" continues the work in progress, it does not start the whole plan;
 * 4. the prompt names the plan (its file name or path, "the plan", "plan file", "remaining items",
 *    "all items", "the checklist") → all open items;
 * 5. the caller asked for the plan (`estimate --plan`) → all open items;
 * 6. anything else → the prompt alone: a prompt about something else is its own task.
 */
export function choosePromptBasis(prompt: string, plan: PlanInScope | undefined): PromptBasis {
  if (plan === undefined) return { kind: 'prompt', why: 'no-plan' };
  const [current] = plan.openItems;
  if (current === undefined) return { kind: 'prompt', why: 'no-open-items' };
  const text = prompt.length > 20_000 ? prompt.slice(0, 20_000) : prompt;

  const named = namedItems(text, plan.openItems);
  if (named.length > 0) return { kind: 'items', why: 'named', items: named };
  if (isAcknowledgement(text)) return { kind: 'current-item', why: 'acknowledgement', items: [current] };
  if (NEXT_ITEM.test(text)) return { kind: 'current-item', why: 'next-item', items: [current] };
  if (WHOLE_PLAN.test(text) || plan.files.some((file) => namesFile(text, file))) return { kind: 'plan', why: 'plan-named', items: plan.openItems };
  if (plan.requested === true) return { kind: 'plan', why: 'plan-requested', items: plan.openItems };
  return { kind: 'prompt', why: 'not-about-the-plan' };
}

/** Whether `prompt` is a short acknowledgement and nothing more. */
export function isAcknowledgement(prompt: string): boolean {
  const words = prompt.toLowerCase().replace(/[^a-z' ]+/g, ' ').split(/\s+/).filter((w) => w !== '');
  return words.length > 0 && words.length <= MAX_ACK_WORDS && words.every((w) => ACK_WORDS.has(w));
}

/** Plan items the prompt names by id or by text, in plan order. */
function namedItems(prompt: string, items: readonly PlanItem[]): PlanItem[] {
  const ids = new Set(prompt.match(ITEM_ID) ?? []);
  const flat = normalise(prompt);
  return items.filter((item) => {
    if ((item.text.match(ITEM_ID) ?? []).some((id) => ids.has(id))) return true;
    const own = normalise(item.text);
    return own.length >= MIN_ITEM_TEXT_MATCH && flat.includes(own);
  });
}

/** The file's path or its base name, as a whole word, case-insensitive. */
function namesFile(prompt: string, file: string): boolean {
  const lower = prompt.toLowerCase();
  const base = file.split('/').pop() ?? file;
  return [file, base].some((name) => {
    const n = name.toLowerCase();
    if (n === '') return false;
    for (let at = lower.indexOf(n); at !== -1; at = lower.indexOf(n, at + 1)) {
      const before = at === 0 ? '' : (lower[at - 1] as string);
      const after = lower[at + n.length] ?? '';
      if (!/[\w/.-]/.test(before) && !/\w/.test(after)) return true;
    }
    return false;
  });
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/[`*_"']/g, '').replace(/\s+/g, ' ').replace(/[.!?,;:]+$/, '').trim();
}

