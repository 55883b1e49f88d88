import { forMarkdownLine } from '@agent-checkpoint/core';
import type { TrackerIssue } from './issue-tracker.ts';

/** An id that is safe as a bare YAML flow-sequence item (no quotes, commas, colons or brackets). */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * The handoff front-matter line naming the tracker issues of this session (seed 004 "Handoff Document
 * Enhancement"): `linear_issues: [ANV-123]`. Ids are de-duplicated; one that is not a plain token (it
 * came from a configurable pattern over an untrusted branch name) is dropped rather than quoted, so the
 * front matter stays one well-formed line. No ids: no line.
 */
export function linearIssuesFrontMatter(ids: readonly string[]): string[] {
  const kept = [...new Set(ids.filter((id) => SAFE_ID.test(id)))];
  return kept.length > 0 ? [`linear_issues: [${kept.join(', ')}]`] : [];
}

/**
 * The "Linear Issue" section of a handoff (HND-003: the issue's state and progress), as Markdown lines.
 * Fetched text (title, state) is escaped like any other untrusted line.
 */
export function linearIssueSectionLines(issue: TrackerIssue): string[] {
  const labels = issue.labels.length > 0 ? ` · labels: ${issue.labels.map((l) => l.name).join(', ')}` : '';
  return [
    '## Linear Issue',
    `- ${forMarkdownLine(`${issue.identifier}: ${issue.title}`)}`,
    `- ${forMarkdownLine(`State: ${issue.state.name} (${issue.state.type})${labels}`)}`,
    `- ${forMarkdownLine(issue.url)}`,
  ];
}
