import { openPlanItems } from './parse-plan-items.ts';

/**
 * What the estimator reads from a task: counts only, so a history sample stores no prompt text.
 * Every count is bounded (untrusted input).
 */
export interface TaskFeatures {
  /** Length of the prompt in characters (capped at {@link MAX_PROMPT_CHARS}). */
  readonly promptChars: number;
  /** Distinct file or path mentions (`src/a.ts`, `docs/`, `README.md`). */
  readonly pathMentions: number;
  /** Bullet or numbered list items in the prompt. */
  readonly bulletItems: number;
  /** Distinct broad-scope words (`refactor`, `migrate`, `all`, `every`, `entire`…). */
  readonly broadScope: number;
  /** Distinct narrow-scope words (`typo`, `one-line`, `tiny`…). */
  readonly narrowScope: number;
  /** Open items of the plan file (unchecked boxes, TODO lines); 0 without a plan. */
  readonly planOpenItems: number;
}

export const MAX_PROMPT_CHARS = 100_000;
export const MAX_PATH_MENTIONS = 50;
export const MAX_BULLET_ITEMS = 100;

/** Words that widen a task's scope (matched whole, case-insensitive). */
export const BROAD_SCOPE_WORDS = [
  'refactor', 'refactoring', 'migrate', 'migration', 'rewrite', 'redesign', 'overhaul', 'port',
  'all', 'every', 'entire', 'whole', 'across', 'everywhere', 'codebase', 'monorepo',
] as const;

/** Words that narrow a task's scope. */
export const NARROW_SCOPE_WORDS = ['typo', 'one-line', 'oneliner', 'tiny', 'trivial', 'small', 'quick', 'single', 'bump'] as const;

// A path: has a slash between name characters, or ends in a dotted extension of 1–8 letters.
const PATH = /(?:^|[\s`'"([])((?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+\/?|[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?=$|[\s`'"),:;\]])/g;
const BULLET = /^\s*(?:[-*+]|\d{1,4}[.)])\s+\S/;
const WORD = /[a-z][a-z-]*/g;

/** The features of a prompt and (optionally) the plan it works through. Pure. */
export function extractTaskFeatures(prompt: string, planText?: string): TaskFeatures {
  const text = prompt.length > MAX_PROMPT_CHARS ? prompt.slice(0, MAX_PROMPT_CHARS) : prompt;
  const paths = new Set<string>();
  for (const match of text.matchAll(PATH)) {
    const path = (match[1] as string).replace(/[.]+$/, '');
    // "e.g", "i.e" and version numbers are not paths.
    if (/\d+\.\d+/.test(path) && !path.includes('/')) continue;
    if (/^(e\.g|i\.e|etc)$/i.test(path)) continue;
    paths.add(path);
    if (paths.size >= MAX_PATH_MENTIONS) break;
  }
  let bullets = 0;
  for (const line of text.split(/\r?\n/)) {
    if (bullets >= MAX_BULLET_ITEMS) break;
    if (BULLET.test(line)) bullets += 1;
  }
  const words = new Set(text.toLowerCase().match(WORD) ?? []);
  return {
    promptChars: text.length,
    pathMentions: paths.size,
    bulletItems: bullets,
    broadScope: BROAD_SCOPE_WORDS.filter((w) => words.has(w)).length,
    narrowScope: NARROW_SCOPE_WORDS.filter((w) => words.has(w)).length,
    planOpenItems: planText === undefined ? 0 : openPlanItems(planText).length,
  };
}
