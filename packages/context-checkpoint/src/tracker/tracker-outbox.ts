import { join } from 'node:path';
import { readRegularFileSync, writeFileSafelySync } from '@agent-checkpoint/core';
import type { TrackerCheckpoint } from './checkpoint-comment.ts';
import type { IssueTracker } from './issue-tracker.ts';
import { syncCheckpointToTracker, trackerActionsFor, type TrackerSyncAction, type TrackerSyncReport, type TrackerSyncStep } from './sync-checkpoint.ts';
import type { TrackerSettings } from './tracker-settings.ts';

/** File in the hook's private state directory holding tracker updates that could not be sent yet. */
export const TRACKER_OUTBOX_FILE = 'tracker-outbox.json';

/** A checkpoint's tracker actions that failed for a passing reason (network, rate limit), to send later. */
export interface PendingTrackerSync {
  readonly issueId: string;
  readonly checkpoint: TrackerCheckpoint;
  readonly actions: readonly TrackerSyncAction[];
  readonly queuedAt: string;
  /** Sends tried so far, the first included. */
  readonly attempts: number;
}

/** At most this many pending syncs are kept (oldest dropped), each tried at most {@link MAX_ATTEMPTS} times. */
const MAX_PENDING = 20;
const MAX_ATTEMPTS = 5;
const MAX_FILE_BYTES = 256 * 1024;

/** What {@link syncCheckpointWithOutbox} did. */
export interface OutboxSyncReport {
  /** The current checkpoint's sync (no steps when a failed replay queued it untried). */
  readonly current: TrackerSyncReport;
  /** Pending syncs sent completely this time. */
  readonly replayed: number;
  /** Pending syncs left in the outbox afterwards. */
  readonly pending: number;
  readonly diagnostics: readonly string[];
}

/**
 * Seed 004's mitigation for "Linear API failures during checkpoint": queue, retry, log locally. First
 * the outbox is replayed (oldest first; a rate limit or network failure stops the replay, since the
 * current sync would meet it too), then the current checkpoint is synced; its actions that failed for a
 * passing reason are queued (all of them, untried, when the replay already failed so). Auth, not-found and invalid-response failures are not queued: retrying
 * cannot fix them, and their diagnostic says what to fix. Never throws; an unreadable outbox is
 * replaced.
 *
 * Concurrent hook runs may each rewrite the file (last writer wins): a lost entry only costs one
 * tracker update, and the state directory is per user.
 */
export async function syncCheckpointWithOutbox(input: {
  readonly tracker: IssueTracker;
  readonly issueId: string;
  readonly checkpoint: TrackerCheckpoint;
  readonly settings: TrackerSettings;
  /** The hook's private state directory. */
  readonly stateDir: string;
  readonly now?: () => Date;
}): Promise<OutboxSyncReport> {
  const now = input.now ?? (() => new Date());
  const diagnostics: string[] = [];
  const { entries, problem } = readTrackerOutbox(input.stateDir);
  if (problem) diagnostics.push(problem);

  const kept: PendingTrackerSync[] = [];
  let replayed = 0;
  let blocked = false;
  for (const entry of entries) {
    if (blocked) {
      kept.push(entry);
      continue;
    }
    const report = await syncCheckpointToTracker({ ...input, issueId: entry.issueId, checkpoint: entry.checkpoint, only: entry.actions });
    const retry = retryableActions(report.steps);
    if (report.diagnostics.length === 0) replayed += 1;
    else diagnostics.push(...report.diagnostics.map((line) => `${line} (queued ${entry.queuedAt})`));
    if (retry.length > 0 && entry.attempts + 1 < MAX_ATTEMPTS) kept.push({ ...entry, actions: retry, attempts: entry.attempts + 1 });
    else if (retry.length > 0) diagnostics.push(`tracker: dropped the update of ${entry.issueId} queued ${entry.queuedAt} after ${MAX_ATTEMPTS} attempts`);
    blocked = retry.length > 0;
  }

  // A replay that met a rate limit or a network failure: the current sync would meet it too, and the
  // hook's budget is better spent elsewhere. Queue it untried.
  const current: TrackerSyncReport = blocked ? { issueId: input.issueId, steps: [], diagnostics: [] } : await syncCheckpointToTracker(input);
  const retry = blocked ? trackerActionsFor(input.checkpoint.level, input.settings) : retryableActions(current.steps);
  if (retry.length > 0) {
    kept.push({ issueId: input.issueId, checkpoint: input.checkpoint, actions: retry, queuedAt: now().toISOString(), attempts: blocked ? 0 : 1 });
  }

  const pending = kept.slice(-MAX_PENDING);
  if (pending.length > 0 || entries.length > 0 || problem) {
    try {
      writeFileSafelySync(input.stateDir, TRACKER_OUTBOX_FILE, `${JSON.stringify(pending, null, 1)}\n`, { rootKind: 'private', mode: 0o600 });
    } catch (error) {
      diagnostics.push(`tracker: could not write the outbox: ${(error as Error).message}`);
    }
  }
  return { current, replayed, pending: pending.length, diagnostics };
}

function retryableActions(steps: readonly TrackerSyncStep[]): TrackerSyncAction[] {
  return steps.filter((step) => !step.result.ok && (step.result.failure.kind === 'network' || step.result.failure.kind === 'rate-limited')).map((step) => step.action);
}

/** Read the outbox; a missing file is empty, a damaged one is empty plus a diagnostic. */
export function readTrackerOutbox(stateDir: string): { readonly entries: readonly PendingTrackerSync[]; readonly problem?: string } {
  let raw: string;
  try {
    // Non-blocking, regular files only, never through a link, capped (the state directory's read).
    const read = readRegularFileSync(join(stateDir, TRACKER_OUTBOX_FILE), MAX_FILE_BYTES);
    if (read === undefined) return { entries: [] };
    raw = read.text;
  } catch (error) {
    return { entries: [], problem: `tracker: outbox unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'}); starting a new one` };
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) throw new Error('not a list');
    return { entries: parsed.filter(isPending).slice(-MAX_PENDING) };
  } catch {
    return { entries: [], problem: 'tracker: outbox damaged; starting a new one' };
  }
}

const ACTIONS: readonly string[] = ['comment', 'set-state', 'add-label'];

function isPending(value: unknown): value is PendingTrackerSync {
  if (value === null || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  const checkpoint = entry.checkpoint as Record<string, unknown> | null | undefined;
  return (
    typeof entry.issueId === 'string' &&
    typeof entry.queuedAt === 'string' &&
    typeof entry.attempts === 'number' &&
    Array.isArray(entry.actions) &&
    entry.actions.every((action) => typeof action === 'string' && ACTIONS.includes(action)) &&
    checkpoint !== null &&
    typeof checkpoint === 'object' &&
    (checkpoint.level === 'L2' || checkpoint.level === 'L3') &&
    (checkpoint.summary === undefined || (Array.isArray(checkpoint.summary) && checkpoint.summary.every((line) => typeof line === 'string'))) &&
    ['handoffPath', 'branch', 'head'].every((key) => checkpoint[key] === undefined || typeof checkpoint[key] === 'string') &&
    ['percent', 'iteration'].every((key) => checkpoint[key] === undefined || typeof checkpoint[key] === 'number')
  );
}
