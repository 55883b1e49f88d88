import type { ResolvedCategory, ResolvedConfig } from '../config/config-schema.ts';
import { globMatcher } from './glob-match.ts';

/** A category that matched, with its files (repo-relative, input order). */
export interface MatchedCategory {
  readonly category: ResolvedCategory;
  readonly files: readonly string[];
}

/** The file axis, sorted into categories. */
export interface Categorization {
  /** Matched categories in configuration order (the "Changed:" order). */
  readonly matched: readonly MatchedCategory[];
  /** Files that only match docs patterns: they never need follow-up on their own. */
  readonly docsOnly: readonly string[];
  /** Files in no category and not docs (changed code without a configured follow-up). */
  readonly uncategorized: readonly string[];
}

/** Whether a file is in a category: any include glob matches and no exclude glob does. */
export function inCategory(category: ResolvedCategory, path: string): boolean {
  return globMatcher(category.include)(path) && !(category.exclude.length > 0 && globMatcher(category.exclude)(path));
}

/** Membership markers of a file in no category: docs, or changed code without a follow-up. */
const DOCS = 0;
const OTHER = 1;

/**
 * Sort changed files into categories.
 * - A category match always wins over docs patterns: `requirements.txt` is a dependency file even if
 *   `**\/*.txt` is a docs pattern, and `agents/x/SKILL.md` is an agent artifact.
 * - An `onlyWhenAlone` category ("tests only") matches only when every non-docs file belongs to it; a
 *   docs file alongside does not prevent it.
 * - A file may belong to several categories; each counts.
 *
 * One pass over the files with each glob list compiled once ({@link globMatcher}): a checkpoint over
 * 5,000 changed files calls this once and hands the result to `runHeuristics` and
 * `composeMessage`.
 */
export function categorizeFiles(paths: readonly string[], config: Pick<ResolvedConfig, 'categories' | 'docsPatterns'>): Categorization {
  const categories = config.categories;
  const isDocs = globMatcher(config.docsPatterns);
  const includes = categories.map((c) => globMatcher(c.include));
  const excludes = categories.map((c) => (c.exclude.length > 0 ? globMatcher(c.exclude) : undefined));
  const filesOf: string[][] = categories.map(() => []);
  /** Per path: the indices of its categories, or `DOCS` / `OTHER` when it has none. */
  const membership: (number[] | typeof DOCS | typeof OTHER)[] = new Array(paths.length);
  let nonDocs = 0;
  for (let i = 0; i < paths.length; i++) {
    const p = paths[i]!;
    let mine: number[] | undefined;
    for (let k = 0; k < categories.length; k++) {
      if (!includes[k]!(p) || excludes[k]?.(p) === true) continue;
      (mine ??= []).push(k);
      filesOf[k]!.push(p);
    }
    if (mine !== undefined) {
      membership[i] = mine;
      nonDocs++;
    } else if (isDocs(p)) {
      membership[i] = DOCS;
    } else {
      membership[i] = OTHER;
      nonDocs++;
    }
  }
  const matched: MatchedCategory[] = [];
  const isMatched: boolean[] = categories.map(() => false);
  categories.forEach((category, k) => {
    const files = filesOf[k]!;
    if (files.length === 0) return;
    // Every file of a category is non-docs, so "every non-docs file is in it" is a count.
    if (category.onlyWhenAlone && files.length !== nonDocs) return;
    matched.push({ category, files });
    isMatched[k] = true;
  });
  const docsOnly: string[] = [];
  const uncategorized: string[] = [];
  for (let i = 0; i < paths.length; i++) {
    const m = membership[i]!;
    if (m === DOCS) docsOnly.push(paths[i]!);
    else if (m === OTHER || !m.some((k) => isMatched[k])) uncategorized.push(paths[i]!);
  }
  return { matched, docsOnly, uncategorized };
}

/** True when nothing but docs changed (an empty list counts): the "no changes" case. */
export function isDocsOnly(categorization: Categorization): boolean {
  return categorization.matched.length === 0 && categorization.uncategorized.length === 0;
}
