import {
  type ChangedFile,
  type ChangeStatus,
  escapeControls,
  forMarkdownLine,
  type GitSnapshot,
  type ToolCall,
  toRepoPath,
  type TurnTimeline,
} from '@agent-checkpoint/core';
import { formatTokens } from '../context/render-context-line.ts';
import type { KnownContextReading } from '../context/read-context-level.ts';
import { linearIssueSectionLines, linearIssuesFrontMatter } from '../tracker/linear-front-matter.ts';
import { clockParts } from './clock-parts.ts';
import type { FileInProgress, HandoffData, HandoffFailure, HandoffTrigger, RenderedHandoff } from './handoff-types.ts';
import { fileInProgressLabel, progressLabel } from './turn-carry.ts';
import { codeSpan, cut, fencedBlock, firstLine, inlineText, quoteBlock, yamlScalar } from './markdown-text.ts';

/** Most commands listed under "What Was Done" (the latest are kept). */
export const MAX_LISTED_COMMANDS = 25;
/** Most files listed per list. */
export const MAX_LISTED_FILES = 100;
/** Longest quoted last assistant message, in characters. */
export const MAX_LAST_MESSAGE_CHARS = 2000;

/** Options of {@link renderHandoff}. */
export interface RenderHandoffOptions {
  /** The clock: the document's date, time and file name. */
  readonly now: Date;
  /** IANA zone for date and time (default: the process's local zone). */
  readonly timeZone?: string;
}

/**
 * Render a handoff document. Pure and deterministic for given data, clock and zone.
 *
 * Front matter (seed 004): `session_date`, `session_time`, `timezone`, `agent`, `session_id`,
 * `branch`, `head`, `checkpoint_trigger` (`L2 (context at 86%)`), `context_at_checkpoint`,
 * `modified_files`, `git_status`. Sections: Checkpoint Reason, Remaining Context Budget (when
 * known), What Was Done This Turn, Files In Progress, Failing Commands, Decisions This Session (when
 * any), Next Steps (explicit steps, the plan's open items, the last message), Context To Reload (with
 * the memory files' headings). Every list is bounded, so a huge turn cannot produce a huge document.
 */
export function renderHandoff(data: HandoffData, options: RenderHandoffOptions): RenderedHandoff {
  const clock = clockParts(options.now, options.timeZone);
  const reading = readingOf(data.trigger);
  const root = data.git?.kind === 'repo' ? data.git.root : data.projectRoot;
  const worktree = worktreeFiles(data.git);

  const front: string[] = [
    '---',
    `session_date: ${yamlScalar(clock.date)}`,
    `session_time: ${yamlScalar(clock.time)}`,
    `timezone: ${yamlScalar(clock.timeZone)}`,
    `agent: ${data.agent}`,
    ...(data.sessionId !== undefined ? [`session_id: ${yamlScalar(data.sessionId)}`] : []),
    `branch: ${yamlScalar(branchLabel(data.git))}`,
    ...(data.git?.kind === 'repo' && data.git.head !== undefined ? [`head: ${data.git.head}`] : []),
    `checkpoint_trigger: ${yamlScalar(triggerLabel(data.trigger))}`,
    `context_at_checkpoint: ${yamlScalar(reading ? `${reading.displayPercent}%` : 'unknown')}`,
    ...yamlList('modified_files', worktree.slice(0, MAX_LISTED_FILES).map((f) => f.path)),
    // Seed 004 "Resume From": each file with the lines being worked on, the current item and its progress.
    // Only when git gave line ranges: otherwise `modified_files` already says it all.
    ...(data.filesInProgress?.some((f) => (f.ranges?.length ?? 0) > 0) === true ? yamlList('files_in_progress', data.filesInProgress.slice(0, MAX_LISTED_FILES).map(fileInProgressLabel)) : []),
    ...(data.progress?.current !== undefined ? [`current_item: ${yamlScalar(cut(data.progress.current, 300))}`] : []),
    ...(data.progress !== undefined ? [`progress: ${yamlScalar(progressLabel(data.progress))}`] : []),
    `git_status: ${yamlScalar(gitStatusSummary(data.git))}`,
    ...(data.trackerIssue !== undefined ? linearIssuesFrontMatter([data.trackerIssue.id]) : []),
    '---',
  ];

  const sections = [
    `# Session Handoff: ${titleOf(data)}`,
    section('Checkpoint Reason', reasonText(data.trigger)),
    ...(data.trackerIssue !== undefined ? [linearIssueText(data.trackerIssue)] : []),
    ...(reading ? [section('Remaining Context Budget', budgetText(reading))] : []),
    section('What Was Done This Turn', doneText(data.timeline, { root, cwd: data.timeline?.cwd ?? root })),
    section('Files In Progress', filesText(data.git, data.filesInProgress)),
    section('Failing Commands', failuresText(data.failures)),
    ...(data.decisions !== undefined && data.decisions.length > 0 ? [section('Decisions This Session', data.decisions.map((d) => `- ${firstLine(d, 300)}`).join('\n'))] : []),
    section('Next Steps', nextStepsText(data)),
    section('Context To Reload', reloadText(data)),
  ];
  // Every piece above escapes what it wraps; this pass makes sure no control character gets through.
  return { stem: clock.stamp, markdown: escapeControls(`${front.join('\n')}\n\n${sections.join('\n\n')}\n`, { keepLines: true }) };
}

/** The "Linear Issue" section (HND-003): the fetched issue's state, or only its id when the tracker did not answer. */
function linearIssueText(tracked: NonNullable<HandoffData['trackerIssue']>): string {
  const [, ...body] = tracked.issue !== undefined ? linearIssueSectionLines(tracked.issue) : ['', `- ${forMarkdownLine(tracked.id)} (state unknown: the tracker did not answer)`];
  return section('Linear Issue', body.join('\n'));
}

/** `L2 (context at 86%)`, `pre-compact (context at 93%)`, `manual`. */
export function triggerLabel(trigger: HandoffTrigger): string {
  const reading = readingOf(trigger);
  const at = reading ? ` (context at ${reading.displayPercent}%)` : '';
  switch (trigger.kind) {
    case 'context':
      return `${trigger.reading.level}${at}`;
    case 'pre-compact':
      return `pre-compact${at}`;
    case 'manual':
      return `manual${at}`;
  }
}

function readingOf(trigger: HandoffTrigger): KnownContextReading | undefined {
  return trigger.reading;
}

function section(title: string, body: string): string {
  return `## ${title}\n\n${body}`;
}

function titleOf(data: HandoffData): string {
  const fromPrompt = data.timeline?.prompt ? firstLine(data.timeline.prompt, 80) : '';
  const title = data.title ?? (fromPrompt !== '' ? fromPrompt : branchLabel(data.git));
  return inlineText(title.replace(/[\r\n]+/g, ' '));
}

function branchLabel(git: GitSnapshot | undefined): string {
  if (!git) return '(unknown)';
  switch (git.kind) {
    case 'repo':
      if (git.branch !== undefined) return git.branch;
      return git.head !== undefined ? `(detached at ${git.head.slice(0, 7)})` : '(no commits yet)';
    case 'not-a-repo':
      return '(not a git repository)';
    case 'error':
      return '(unknown)';
  }
}

function worktreeFiles(git: GitSnapshot | undefined): readonly ChangedFile[] {
  return git?.kind === 'repo' ? git.files.filter((f) => f.source === 'worktree') : [];
}

/** `2 modified, 1 untracked`, `clean`, `not a git repository`. */
export function gitStatusSummary(git: GitSnapshot | undefined): string {
  if (!git) return 'unknown';
  if (git.kind === 'not-a-repo') return 'not a git repository';
  if (git.kind === 'error') return `unavailable (${inlineText(cut(git.message, 120))})`;
  const counts = new Map<ChangeStatus, number>();
  for (const f of worktreeFiles(git)) counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
  if (counts.size === 0) return 'clean';
  const order: ChangeStatus[] = ['modified', 'added', 'deleted', 'renamed', 'copied', 'type-changed', 'unmerged', 'untracked'];
  return order
    .filter((s) => counts.has(s))
    .map((s) => `${counts.get(s)} ${s}`)
    .join(', ');
}

function reasonText(trigger: HandoffTrigger): string {
  const reading = readingOf(trigger);
  const contextSentence = reading
    ? `Context reached ${reading.displayPercent}% of the ${formatTokens(reading.contextWindow)}-token window (${reading.level}; ${formatTokens(reading.contextTokens)} tokens in use).${windowNote(reading)}`
    : '';
  switch (trigger.kind) {
    case 'context':
      return contextSentence;
    case 'pre-compact':
      return [`The agent was about to compact its context${trigger.auto === undefined ? '' : trigger.auto ? ' (automatic)' : ' (requested)'}.`, contextSentence]
        .filter((s) => s !== '')
        .join(' ');
    case 'manual':
      return [trigger.reason !== undefined && trigger.reason.trim() !== '' ? trigger.reason.trim() : 'Checkpoint requested.', contextSentence]
        .filter((s) => s !== '')
        .join(' ');
  }
}

function windowNote(reading: KnownContextReading): string {
  switch (reading.windowSource) {
    case 'transcript':
      return '';
    case 'config':
      return ' The window size comes from the configuration (context.windowTokens).';
    case 'model-table': {
      const model = reading.model !== undefined ? ` for ${reading.model}` : '';
      const table = reading.table;
      const extended = table?.extended ? ' (the extended window, since usage exceeded the standard one)' : '';
      const assumed = table && !table.certain ? ' It is an assumption; set context.windowTokens if it is wrong.' : '';
      return ` The window size${model} comes from the built-in model table${extended}.${assumed}`;
    }
  }
}

function budgetText(reading: KnownContextReading): string {
  const left = Math.max(0, 100 - reading.displayPercent);
  return `Estimated ${left}% (~${formatTokens(reading.remainingTokens)} tokens) remained in the session's context window.`;
}

function doneText(timeline: TurnTimeline | undefined, base: { root: string; cwd: string }): string {
  if (!timeline || !timeline.hasData) return 'No transcript data for this turn.';
  const out: string[] = [];
  if (timeline.prompt) out.push(`Prompt: ${codeSpan(firstLine(timeline.prompt, 200))}`);
  if (timeline.truncated) out.push('The transcript read was capped: earlier actions of this turn are not listed.');

  const shells = timeline.calls.filter((c): c is Extract<ToolCall, { kind: 'shell' }> => c.kind === 'shell');
  if (shells.length === 0) out.push('Commands: none.');
  else {
    const shown = shells.slice(-MAX_LISTED_COMMANDS);
    const lines = shown.map((c) => `- ${codeSpan(firstLine(c.command, 160))}: ${outcomeLabel(c)}`);
    if (shells.length > shown.length) lines.unshift(`- (${shells.length - shown.length} earlier commands not listed)`);
    out.push(`Commands:\n\n${lines.join('\n')}`);
  }

  const byKind: Record<'edit' | 'write' | 'patch', string[]> = { edit: [], write: [], patch: [] };
  for (const call of timeline.calls) {
    if (call.kind !== 'edit' && call.kind !== 'write' && call.kind !== 'patch') continue;
    for (const p of call.paths) {
      const shown = toRepoPath(p, base) ?? p;
      if (!byKind[call.kind].includes(shown)) byKind[call.kind].push(shown);
    }
  }
  const labels = { edit: 'Edited', write: 'Written', patch: 'Patched' } as const;
  const fileLines = (['edit', 'write', 'patch'] as const)
    .filter((k) => byKind[k].length > 0)
    .map((k) => `- ${labels[k]}: ${listPaths(byKind[k])}`);
  out.push(fileLines.length > 0 ? `Files changed by tool calls:\n\n${fileLines.join('\n')}` : 'Files changed by tool calls: none.');
  return out.join('\n\n');
}

function outcomeLabel(call: Extract<ToolCall, { kind: 'shell' }>): string {
  switch (call.outcome) {
    case 'success':
      return call.exitCode !== undefined ? `ok (exit ${call.exitCode})` : 'ok';
    case 'error':
      return call.exitCode !== undefined ? `failed (exit ${call.exitCode})` : 'failed';
    case 'pending':
      return 'no result (still running or interrupted)';
    case 'unknown':
      return 'ran, outcome not recorded';
  }
}

function listPaths(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_LISTED_FILES).map(codeSpan);
  return paths.length > shown.length ? `${shown.join(', ')} and ${paths.length - shown.length} more` : shown.join(', ');
}

const STATUS_CODE: Record<ChangeStatus, string> = {
  modified: 'M',
  added: 'A',
  deleted: 'D',
  renamed: 'R',
  copied: 'C',
  'type-changed': 'T',
  unmerged: 'U',
  untracked: '??',
};

function filesText(git: GitSnapshot | undefined, inProgress: readonly FileInProgress[] | undefined): string {
  if (!git) return 'Git status was not read.';
  if (git.kind === 'not-a-repo') return 'Not a git repository: no file status.';
  if (git.kind === 'error') return `Git status unavailable: ${inlineText(cut(git.message, 200))}`;
  const out: string[] = [];
  const ranges = new Map((inProgress ?? []).map((f) => [f.path, f] as const));
  const rangeText = (f: ChangedFile): string => {
    const found = f.source === 'worktree' ? ranges.get(f.path) : undefined;
    if (found?.ranges === undefined || found.ranges.length === 0) return '';
    return inlineText(fileInProgressLabel(found).slice(found.path.length));
  };
  const fileLine = (f: ChangedFile) =>
    `- ${STATUS_CODE[f.status]} ${f.fromPath !== undefined ? `${codeSpan(f.fromPath)} -> ` : ''}${codeSpan(f.path)}${rangeText(f)}`;
  const worktree = worktreeFiles(git);
  if (worktree.length === 0) out.push('No uncommitted changes.');
  else {
    const shown = worktree.slice(0, MAX_LISTED_FILES);
    out.push(`Uncommitted changes (${gitStatusSummary(git)}):\n\n${shown.map(fileLine).join('\n')}`);
    if (worktree.length > shown.length) out.push(`(${worktree.length - shown.length} more not listed)`);
  }
  const committed = git.files.filter((f) => f.source === 'committed');
  if (committed.length > 0) {
    const shown = committed.slice(0, MAX_LISTED_FILES);
    out.push(`Committed during the turn:\n\n${shown.map(fileLine).join('\n')}`);
  }
  return out.join('\n\n');
}

function failuresText(failures: readonly HandoffFailure[] | undefined): string {
  if (!failures || failures.length === 0) return 'None unresolved.';
  return failures
    .slice(0, 20)
    .map((f) => {
      const head = f.command !== undefined ? `${codeSpan(firstLine(f.command, 160))}${f.exitCode !== undefined ? ` (exit ${f.exitCode})` : ''}: ` : '';
      const tail = f.outputTail !== undefined && f.outputTail.trim() !== '' ? `\n\n${fencedBlock(f.outputTail, '  ')}` : '';
      return `- ${head}${inlineText(f.text)}${tail}`;
    })
    .join('\n');
}

function nextStepsText(data: HandoffData): string {
  const out: string[] = [];
  const progress = data.progress;
  if (progress !== undefined) {
    const where = progress.file !== undefined && progress.line !== undefined ? `, ${codeSpan(`${progress.file}:${progress.line}`)}` : '';
    const from = progress.source === 'plan' ? 'the plan' : "the agent's task list";
    out.push(
      progress.current !== undefined
        ? `Current item: ${firstLine(progress.current, 300)} (${progressLabel(progress)} in ${from}${where}).`
        : `Every item of ${from} is done (${progressLabel(progress)}).`,
    );
  }
  if (data.nextSteps && data.nextSteps.length > 0) out.push(data.nextSteps.map((s, i) => `${i + 1}. ${firstLine(s, 300)}`).join('\n'));
  if (data.planFile !== undefined) out.push(`Continue the plan in ${codeSpan(data.planFile)}.`);
  const plan = data.planItems;
  if (plan !== undefined && plan.items.length > 0) {
    const more = plan.total > plan.items.length ? `\n\n(${plan.total - plan.items.length} more open items in the plan)` : '';
    out.push(`Open items of the plan (${plan.total}):\n\n${plan.items.map((item, i) => `${i + 1}. ${firstLine(item, 300)}`).join('\n')}${more}`);
  }
  const last = data.timeline?.lastAssistantMessage?.trim();
  if (last) out.push(`The agent's last message:\n\n${quoteBlock(cut(last, MAX_LAST_MESSAGE_CHARS))}`);
  if (out.length === 0) out.push('None recorded: re-read the prompt and the files in progress.');
  return out.join('\n\n');
}

function reloadText(data: HandoffData): string {
  const lines: string[] = [];
  for (const file of data.memoryFiles ?? []) {
    lines.push(`- ${codeSpan(file)}: agent memory file (project instructions)`);
    const headings = data.memorySections?.find((m) => m.file === file)?.headings ?? [];
    if (headings.length > 0) lines.push(`  sections to reload: ${headings.map((h) => codeSpan(h)).join(', ')}`);
  }
  if (data.planFile !== undefined) lines.push(`- ${codeSpan(data.planFile)}: plan`);
  return lines.length > 0 ? lines.join('\n') : 'No memory or plan file found.';
}

function yamlList(key: string, values: readonly string[]): string[] {
  if (values.length === 0) return [`${key}: []`];
  return [`${key}:`, ...values.map((v) => `  - ${yamlScalar(v)}`)];
}
