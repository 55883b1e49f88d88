import { forMarkdownCode, forMarkdownLine } from '@agent-checkpoint/core';

/** A checkpoint level that reaches the tracker. L1 (a warning) never does. */
export type TrackerCheckpointLevel = 'L2' | 'L3';

/** What a checkpoint tells the issue tracker (LIN-002/LIN-003). */
export interface TrackerCheckpoint {
  readonly level: TrackerCheckpointLevel;
  /** Context use at the checkpoint, when known (0–100). */
  readonly percent?: number;
  /** Repo-relative path of the handoff document written (LIN-003: "link handoff document"). */
  readonly handoffPath?: string;
  /** A few lines: what the handoff says was going on (title, next step). Untrusted text. */
  readonly summary?: readonly string[];
  /** Loop-runner iteration; comments are prefixed with it (seed 004 open question 3). */
  readonly iteration?: number;
  /** Branch and HEAD, when known, so the comment says where the WIP is. */
  readonly branch?: string;
  readonly head?: string;
}

const MAX_SUMMARY_LINES = 12;
const MAX_LINE_CHARS = 300;

/**
 * The Markdown comment posted to the issue at a checkpoint. Every piece of text that comes from the
 * working tree or the transcript is rendered as one escaped Markdown line or code span, so it cannot
 * open blocks, links or mentions of its own.
 */
export function renderCheckpointComment(checkpoint: TrackerCheckpoint): string {
  const icon = checkpoint.level === 'L3' ? '🔴' : '🔶';
  const iteration = checkpoint.iteration !== undefined ? `Iteration ${Math.trunc(checkpoint.iteration)} · ` : '';
  const percent = checkpoint.percent !== undefined ? ` at ${Math.round(checkpoint.percent)}%` : '';
  const lines = [`${icon} **${iteration}Context checkpoint ${checkpoint.level}${percent}**`, ''];
  if (checkpoint.handoffPath !== undefined) lines.push(`Handoff document: ${forMarkdownCode(checkpoint.handoffPath)}`);
  if (checkpoint.branch !== undefined) {
    const head = checkpoint.head !== undefined ? ` @ ${forMarkdownCode(checkpoint.head.slice(0, 12))}` : '';
    lines.push(`Branch: ${forMarkdownCode(checkpoint.branch)}${head}`);
  }
  const summary = (checkpoint.summary ?? []).filter((line) => line.trim() !== '').slice(0, MAX_SUMMARY_LINES);
  if (summary.length > 0) {
    lines.push('');
    for (const line of summary) {
      const short = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
      lines.push(`> ${forMarkdownLine(short)}`);
    }
  }
  lines.push('', checkpoint.level === 'L3' ? '_Emergency checkpoint: the next session resumes from the handoff._' : '_The next session resumes from the handoff._');
  return lines.join('\n');
}
