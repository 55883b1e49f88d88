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

/**
 * Sort changed files into categories.
 * - A category match always wins over docs patterns: `requirements.txt` is a dependency file even if
 *   `**\/*.txt` is a docs pattern, and `agents/x/SKILL.md` is an agent artifact.
 * - An `onlyWhenAlone` category ("tests only") matches only when every non-docs file belongs to it; a
 *   docs file alongside does not prevent it.
 * - A file may belong to several categories; each counts.
 */
export function categorizeFiles(paths: readonly string[], config: Pick<ResolvedConfig, 'categories' | 'docsPatterns'>): Categorization {
  const isDocs = globMatcher(config.docsPatterns);
  const membership = new Map<string, ResolvedCategory[]>();
  for (const p of paths) membership.set(p, config.categories.filter((c) => inCategory(c, p)));
  const nonDocs = paths.filter((p) => (membership.get(p) ?? []).length > 0 || !isDocs(p));
  const matched: MatchedCategory[] = [];
  for (const category of config.categories) {
    const files = paths.filter((p) => membership.get(p)?.includes(category));
    if (files.length === 0) continue;
    if (category.onlyWhenAlone && !nonDocs.every((p) => membership.get(p)?.includes(category))) continue;
    matched.push({ category, files });
  }
  const categorized = new Set(matched.flatMap((m) => m.files));
  return {
    matched,
    docsOnly: paths.filter((p) => !categorized.has(p) && (membership.get(p) ?? []).length === 0 && isDocs(p)),
    uncategorized: paths.filter((p) => !categorized.has(p) && !((membership.get(p) ?? []).length === 0 && isDocs(p))),
  };
}

/** True when nothing but docs changed (an empty list counts): the "no changes" case. */
export function isDocsOnly(categorization: Categorization): boolean {
  return categorization.matched.length === 0 && categorization.uncategorized.length === 0;
}
