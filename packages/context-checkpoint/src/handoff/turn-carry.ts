import { type GitSnapshot, latestTaskList, type LineRange, type TaskListItem, type TurnTimeline } from '@agent-checkpoint/core';
import { parsePlanItems } from '../estimate/parse-plan-items.ts';
import type { FileInProgress, HandoffFailure, WorkProgress } from './handoff-types.ts';
import { codeSpan } from './markdown-text.ts';
import { extractDecisions, MAX_DECISIONS } from './session-carry.ts';

/**
 * What a handoff derives from the turn itself when the agent wrote nothing for it (seed 004 HND-004,
 * HND-006; RLP "Resume From"): the current item and its progress, the next steps, the decisions.
 * Deterministic (no model): the agent's own task list (its planning calls, normalised by the
 * transcript readers), the plan file, the last message's "Next steps" list, the failing commands,
 * and what the work tree shows. Every input is untrusted text: bounded counts and lengths here, the
 * renderer escapes.
 */

/** Most next steps derived. */
export const MAX_DERIVED_STEPS = 20;
const MAX_STEP_CHARS = 300;

/** The plan's progress: checked boxes of all items; the current item is the first open one. */
export function progressFromPlan(text: string, file: string): WorkProgress | undefined {
  const items = parsePlanItems(text);
  if (items.length === 0) return undefined;
  const current = items.find((item) => !item.done);
  return {
    source: 'plan',
    ...(current !== undefined ? { current: current.text, file, line: current.line } : {}),
    done: items.filter((item) => item.done).length,
    total: items.length,
  };
}

/** The task list's progress: completed of the tasks not cancelled; the current one is in progress, else the first pending. */
export function progressFromTaskList(list: readonly TaskListItem[] | undefined): WorkProgress | undefined {
  const counted = (list ?? []).filter((task) => task.status !== 'cancelled');
  if (counted.length === 0) return undefined;
  const current = counted.find((task) => task.status === 'in_progress') ?? counted.find((task) => task.status === 'pending');
  return {
    source: 'task-list',
    ...(current !== undefined ? { current: current.text } : {}),
    done: counted.filter((task) => task.status === 'completed').length,
    total: counted.length,
  };
}

/** `3 of 7 done`. */
export function progressLabel(progress: Pick<WorkProgress, 'done' | 'total'>): string {
  return `${progress.done} of ${progress.total} done`;
}

/** `src/a.ts (lines 45-120)`, `src/b.ts`: a file in progress as the front matter and the resume prompt show it. */
export function fileInProgressLabel(file: FileInProgress): string {
  const ranges = file.ranges ?? [];
  if (ranges.length === 0) return file.path;
  const text = ranges.map((r) => (r.start === r.end ? String(r.start) : `${r.start}-${r.end}`)).join(', ');
  return `${file.path} (${ranges.length === 1 && ranges[0]?.start === ranges[0]?.end ? 'line' : 'lines'} ${text})`;
}

/** The uncommitted files of the snapshot with the ranges read for them (in the snapshot's order). */
export function filesInProgressOf(git: GitSnapshot | undefined, ranges: ReadonlyMap<string, readonly LineRange[]>): FileInProgress[] {
  if (git?.kind !== 'repo') return [];
  return git.files
    .filter((file) => file.source === 'worktree' && file.status !== 'deleted')
    .map((file) => {
      const found = ranges.get(file.path);
      return found !== undefined && found.length > 0 ? { path: file.path, ranges: found } : { path: file.path };
    });
}

// Matched against lines cut to 4096 characters; linear patterns only (untrusted text).
const NEXT_HEADING = /^[ \t]{0,3}(?:#{1,6}[ \t]+)?(?:\*\*|__)?(?:next steps?|remaining(?: work| steps)?|still to do|to ?do|open items)(?:\*\*|__)?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*$/i;
const ANY_HEADING = /^\s{0,3}#{1,6}\s/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,4}[.)])\s+(?:\[[ ]\]\s+)?(\S.*)$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** The list under a "Next steps" / "Remaining" / "TODO" heading or line of the agent's message. */
export function nextStepsInMessage(text: string | undefined): string[] {
  if (text === undefined) return [];
  const found: string[] = [];
  let inFence = false;
  let inSection = false;
  for (const full of text.slice(0, 200_000).split(/\r?\n/)) {
    const line = full.slice(0, 4096);
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (NEXT_HEADING.test(line)) {
      inSection = true;
      continue;
    }
    if (!inSection) continue;
    if (ANY_HEADING.test(line)) {
      inSection = false;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item?.[1] !== undefined) found.push(item[1]);
    else if (line.trim() !== '' && found.length > 0 && !/^\s/.test(line)) inSection = false;
  }
  return found;
}

/**
 * The next steps of a turn without explicit ones (HND-004), in order: the task in progress, the
 * message's own "Next steps" list, the pending tasks, the failing commands to fix. Deduplicated, at
 * most {@link MAX_DERIVED_STEPS}.
 */
export function deriveNextSteps(input: { readonly timeline?: TurnTimeline; readonly failures?: readonly HandoffFailure[] }): string[] {
  const steps: string[] = [];
  const add = (raw: string): void => {
    const text = raw.trim().replace(/\s+/g, ' ');
    const cut = text.length > MAX_STEP_CHARS ? `${text.slice(0, MAX_STEP_CHARS - 1)}…` : text;
    if (cut !== '' && !steps.includes(cut) && steps.length < MAX_DERIVED_STEPS) steps.push(cut);
  };
  const tasks = latestTaskList(input.timeline?.calls ?? []) ?? [];
  for (const task of tasks) if (task.status === 'in_progress') add(`Finish: ${task.text}`);
  for (const step of nextStepsInMessage(input.timeline?.lastAssistantMessage)) add(step);
  for (const task of tasks) if (task.status === 'pending') add(task.text);
  for (const failure of input.failures ?? []) {
    const command = failure.command?.split(/\r?\n/, 1)[0];
    add(command !== undefined ? `Fix the failing ${codeSpan(command.slice(0, 160))}${failure.exitCode !== undefined ? ` (exit ${failure.exitCode})` : ''}` : `Fix: ${failure.text}`);
  }
  return steps;
}

// A package manager adding or removing dependencies, as the first command of a line: a decision the diff shows only in a lockfile.
const DEPENDENCY_COMMAND = /^(?:npm|pnpm|yarn|bun)\s+(?:add|install|i|remove|uninstall|rm)\s+[^-\s]|^(?:pip3?|uv pip)\s+(?:install|uninstall)\s+[^-\s]|^(?:cargo|poetry|uv)\s+(?:add|remove)\s+[^-\s]|^go\s+get\s+[^-\s]/;

/**
 * The decisions of a turn (HND-006): the explicit statements (`Decision: …`, "We decided …", a
 * `## Decisions` list) in the prompt and the agent's last message; the tasks the agent cancelled; the
 * dependencies it added or removed (package-manager commands that succeeded); the files it deleted
 * or renamed (the work tree). Deduplicated, at most {@link MAX_DECISIONS}.
 */
export function deriveDecisions(input: { readonly timeline?: TurnTimeline; readonly git?: GitSnapshot }): string[] {
  const found = extractDecisions([input.timeline?.prompt, input.timeline?.lastAssistantMessage]);
  const add = (text: string): void => {
    if (!found.includes(text) && found.length < MAX_DECISIONS) found.push(text);
  };
  for (const task of latestTaskList(input.timeline?.calls ?? []) ?? []) if (task.status === 'cancelled') add(`Dropped: ${task.text}`);
  for (const call of input.timeline?.calls ?? []) {
    if (call.kind !== 'shell' || call.outcome !== 'success') continue;
    const first = call.command.split(/\r?\n/, 1)[0]?.trim().slice(0, 300) ?? '';
    if (DEPENDENCY_COMMAND.test(first)) add(`Dependencies changed: ${codeSpan(first)}`);
  }
  if (input.git?.kind === 'repo') {
    for (const file of input.git.files) {
      if (file.source !== 'worktree') continue;
      if (file.status === 'deleted') add(`Deleted ${codeSpan(file.path)}`);
      else if (file.status === 'renamed' && file.fromPath !== undefined) add(`Renamed ${codeSpan(file.fromPath)} to ${codeSpan(file.path)}`);
    }
  }
  return found;
}
