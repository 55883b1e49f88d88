/** One work item of a plan file. */
export interface PlanItem {
  /** 1-based line number in the plan. */
  readonly line: number;
  /** The item's text without its marker (`- [ ] `, `1. TODO: `), trimmed. */
  readonly text: string;
  /** True for a checked box (`- [x]`); numbered TODOs are never checked (they are removed when done). */
  readonly done: boolean;
  readonly kind: 'checkbox' | 'todo';
}

/** Items read from a plan; more are ignored (a plan is a human document, not a database). */
export const MAX_PLAN_ITEMS = 500;

/** Longest item text kept (the rest is cut with an ellipsis). */
export const MAX_ITEM_CHARS = 300;

/** Characters of a line looked at; longer lines are cut first (their item text is clipped anyway). */
export const MAX_LINE_CHARS = 4096;
/** Characters of a plan read; the rest is ignored. */
export const MAX_PLAN_CHARS = 1_000_000;

// Matched against the trimmed line: no two quantifiers compete for the same characters, so an
// untrusted line of 100k spaces costs linear time (`\s+(.*\S)\s*$` would be quadratic).
const CHECKBOX = /^(?:[-*+]|\d{1,4}[.)])[ \t]+\[([ xX])\][ \t]+(\S.*)$/;
// "1. TODO: write the parser", "- TODO write the parser", "TODO: …" at the start of a line.
const TODO = /^(?:(?:[-*+]|\d{1,4}[.)])[ \t]+)?TODO\b[:\s-]*(.*)$/;

/**
 * The work items of a markdown plan: task-list checkboxes (`- [ ] …`, `* [x] …`, `1. [ ] …`) and
 * numbered or bulleted TODO lines (`1. TODO: …`). Lines inside fenced code blocks are skipped (an
 * example of a checklist is not one). Untrusted text: the count and each item's length are bounded.
 */
export function parsePlanItems(markdown: string): PlanItem[] {
  const items: PlanItem[] = [];
  const lines = (markdown.length > MAX_PLAN_CHARS ? markdown.slice(0, MAX_PLAN_CHARS) : markdown).split(/\r?\n/);
  let fence: string | undefined;
  for (let i = 0; i < lines.length && items.length < MAX_PLAN_ITEMS; i += 1) {
    const line = (lines[i] as string).slice(0, MAX_LINE_CHARS).trim();
    const fenceMatch = /^(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      const marker = (fenceMatch[1] as string).slice(0, 3);
      if (fence === undefined) fence = marker;
      else if (marker === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const box = CHECKBOX.exec(line);
    if (box) {
      items.push({ line: i + 1, text: clip(box[2] as string), done: box[1] !== ' ', kind: 'checkbox' });
      continue;
    }
    const todo = TODO.exec(line);
    const text = todo?.[1]?.trim();
    if (text !== undefined && text !== '') items.push({ line: i + 1, text: clip(text), done: false, kind: 'todo' });
  }
  return items;
}

/** The items not done yet. */
export function openPlanItems(markdown: string): PlanItem[] {
  return parsePlanItems(markdown).filter((item) => !item.done);
}

function clip(text: string): string {
  return text.length > MAX_ITEM_CHARS ? `${text.slice(0, MAX_ITEM_CHARS - 1)}…` : text;
}
