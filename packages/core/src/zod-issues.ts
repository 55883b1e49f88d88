/** The part of a zod error we report (classic and mini errors both have it). */
interface IssueList {
  readonly issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>;
}

/**
 * One line describing why a value failed validation (first three issues), for a diagnostic: zod's own
 * `message` is the issues as pretty-printed JSON over many lines, which a hook's one stderr line cannot carry.
 */
export function describeIssues(error: IssueList): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`)
    .join('; ')
    .replace(/\s*[\r\n]+\s*/g, ' ');
}
