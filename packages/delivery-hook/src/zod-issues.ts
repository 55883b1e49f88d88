/** The part of a zod error we report (classic and mini errors both have it). */
interface IssueList {
  readonly issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>;
}

/** One line describing why a payload failed validation (first three issues). */
export function describeIssues(error: IssueList): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/** `null` and `''` mean "not given" in hook payloads. */
export function given(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value;
}
