import { setTimeout as delay } from 'node:timers/promises';
import type { GitOutcome } from './git-step.ts';

/**
 * Why a `git push` failed, as far as its output tells:
 * - `transient`: the network or the server, worth another try (5xx, connection refused or reset,
 *   DNS, a hung-up remote, our own time limit);
 * - `auth`: credentials or host keys: retrying cannot help and would only repeat a refused login;
 * - `rejected`: the server refused the update (non-fast-forward, a hook, a protected branch);
 * - `other`: anything else (no such repository, a refused transport…): not retried.
 */
export type PushFailureKind = 'transient' | 'auth' | 'rejected' | 'other';

// Order matters: an SSH login failure also says "Could not read from remote repository".
const AUTH = [
  /authentication failed/i,
  /could not read (username|password)/i,
  /terminal prompts disabled/i,
  /returned error: 40[13]\b/i,
  /permission denied/i,
  /host key verification failed/i,
  /invalid (username|password|credentials)/i,
];
const REJECTED = [/\[rejected\]/, /\[remote rejected\]/, /non-fast-forward/i, /\bfetch first\b/i, /hook declined/i, /protected branch/i];
const TRANSIENT = [
  /returned error: 5\d\d\b/i,
  /returned error: 429\b/i,
  /rpc failed/i,
  /could not resolve host/i,
  /failed to connect to/i,
  /connection (refused|reset|timed out|closed)/i,
  /operation timed out/i,
  /network is unreachable/i,
  /the remote end hung up unexpectedly/i,
  /early eof/i,
  /unexpected disconnect/i,
  /empty reply from server/i,
  /^timed out after \d+ ms$/,
];

/** Classify a failed push from git's message and stderr (see {@link PushFailureKind}). */
export function classifyPushFailure(outcome: Pick<GitOutcome, 'message' | 'stderr'>): PushFailureKind {
  const text = `${outcome.message}\n${outcome.stderr}`;
  if (AUTH.some((re) => re.test(text))) return 'auth';
  if (REJECTED.some((re) => re.test(text))) return 'rejected';
  if (TRANSIENT.some((re) => re.test(outcome.message) || re.test(outcome.stderr))) return 'transient';
  return 'other';
}

/** First wait before a retry; doubled each time, capped at {@link MAX_BACKOFF_MS}. */
export const BASE_BACKOFF_MS = 250;
export const MAX_BACKOFF_MS = 2_000;
/** A retry is only started when at least this much time is left for it after the wait. */
export const MIN_PUSH_ATTEMPT_MS = 500;

/** Options of {@link pushWithRetry}. */
export interface PushWithRetryOptions {
  /** Retries after the first attempt (0: push once). */
  readonly retries: number;
  /** Absolute time (`Date.now()` clock) the whole push, waits included, must end by: the hook's deadline. */
  readonly deadlineAt?: number;
  /** Aborts a wait (and, through the attempt, git): the hook's own budget. */
  readonly signal?: AbortSignal;
  /** The per-attempt time limit git gets at most (the attempt receives less near the deadline). */
  readonly timeoutMs: number;
  /** Called before each retry (for the checkpoint log). */
  readonly onRetry?: (attempt: number, kind: PushFailureKind, waitMs: number, previous: GitOutcome) => void;
  readonly now?: () => number;
}

/** The last attempt's outcome; `attempts` counts them; `gaveUp` says why a transient failure was not retried further. */
export interface PushWithRetryResult {
  readonly outcome: GitOutcome;
  readonly attempts: number;
  readonly kind?: PushFailureKind;
  readonly gaveUp?: 'retries-exhausted' | 'deadline' | 'aborted';
}

/**
 * Run `attempt(timeoutMs)` (one `git push`) and retry transient failures with bounded exponential
 * backoff (seed 003, "Retry Logic: Auto-retry failed git pushes with backoff"): 250 ms, 500 ms, 1 s,
 * 2 s… Never past `deadlineAt`: a retry starts only when its wait plus {@link MIN_PUSH_ATTEMPT_MS}
 * fits before it, and each attempt's time limit is cut to what is left. Authentication failures and
 * rejections are returned at once. Never throws (the attempt must not either).
 */
export async function pushWithRetry(attempt: (timeoutMs: number) => Promise<GitOutcome>, options: PushWithRetryOptions): Promise<PushWithRetryResult> {
  const now = options.now ?? Date.now;
  const limit = (): number => (options.deadlineAt === undefined ? options.timeoutMs : Math.max(1, Math.min(options.timeoutMs, options.deadlineAt - now())));
  let attempts = 1;
  let outcome = await attempt(limit());
  for (;;) {
    if (outcome.ok) return { outcome, attempts };
    const kind = classifyPushFailure(outcome);
    if (kind !== 'transient') return { outcome, attempts, kind };
    if (attempts > options.retries) return { outcome, attempts, kind, gaveUp: 'retries-exhausted' };
    const waitMs = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (attempts - 1));
    if (options.deadlineAt !== undefined && now() + waitMs + MIN_PUSH_ATTEMPT_MS > options.deadlineAt) return { outcome, attempts, kind, gaveUp: 'deadline' };
    options.onRetry?.(attempts + 1, kind, waitMs, outcome);
    try {
      await delay(waitMs, undefined, options.signal ? { signal: options.signal } : {});
    } catch {
      return { outcome, attempts, kind, gaveUp: 'aborted' };
    }
    attempts += 1;
    outcome = await attempt(limit());
  }
}
