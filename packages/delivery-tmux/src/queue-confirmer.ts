import { spawn } from 'node:child_process';
import * as z from 'zod/mini';
import { deleteQueuedItem } from './codex-queue-client.ts';
import { findQueuedDelivery, waitForQueuedDelivery } from './confirm-queued-delivery.ts';
import type { CodexCommand } from './detect-codex-queue.ts';
import type { NotifyLogger } from './notify-logger.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The hidden subcommand the notify run starts its confirmer with (job JSON on stdin). */
export const CONFIRM_QUEUE_COMMAND = '__confirm-queue';

/** Everything the confirmer needs to check one queued item and remove it when it was not delivered. */
export const QueueJobSchema = z.object({
  threadId: z.string(),
  turnId: z.string(),
  queuedSubmissionId: z.string(),
  rolloutPath: z.string(),
  /** Size of the rollout when the item was queued: the queued turn is appended after it. */
  fromOffset: z.number(),
  text: z.string(),
  deadlineMs: z.number(),
  codex: z.object({
    argv: z.array(z.string()),
    path: z.string(),
    source: z.enum(['option', 'PATH', 'CODEX_MANAGED_PACKAGE_ROOT']),
  }),
  queuedAt: z.number(),
});
export type QueueJob = z.infer<typeof QueueJobSchema>;

/** How one queued item ended. */
export type QueueConfirmation =
  | { readonly status: 'delivered'; readonly turnId: string; readonly latencyMs: number }
  /** Not delivered in time; the item was removed from the queue. */
  | { readonly status: 'withdrawn'; readonly reason: string }
  /** Not delivered in time, and removing it failed: it may still run later. */
  | { readonly status: 'stale'; readonly reason: string };

/**
 * Wait (up to `job.deadlineMs`) for the queued turn to show up in the rollout with our exact text;
 * otherwise delete the item and check the rollout once more (it may have been dequeued while we
 * deleted). Logs the outcome; never throws.
 */
export async function confirmQueuedJob(job: QueueJob, deps: { readonly env: Env; readonly log: NotifyLogger }): Promise<QueueConfirmation> {
  const fields = { threadId: job.threadId, turnId: job.turnId, queuedSubmissionId: job.queuedSubmissionId };
  const remaining = Math.max(0, job.queuedAt + job.deadlineMs - Date.now());
  const found = await waitForQueuedDelivery(job.rolloutPath, job.fromOffset, job.text, { deadlineMs: remaining });
  if (found) {
    const latencyMs = Date.now() - job.queuedAt;
    deps.log.debug('queue: delivered', { ...fields, queueTurnId: found.turnId, latencyMs });
    return { status: 'delivered', turnId: found.turnId, latencyMs };
  }
  const removed = await deleteQueuedItem(job.codex as CodexCommand, { threadId: job.threadId, queuedSubmissionId: job.queuedSubmissionId, env: deps.env });
  const late = await findQueuedDelivery(job.rolloutPath, job.fromOffset, job.text);
  if (late) {
    const latencyMs = Date.now() - job.queuedAt;
    deps.log.debug('queue: delivered', { ...fields, queueTurnId: late.turnId, latencyMs });
    return { status: 'delivered', turnId: late.turnId, latencyMs };
  }
  const result: QueueConfirmation = removed.ok
    ? { status: 'withdrawn', reason: `not delivered within ${job.deadlineMs} ms (Codex paused or closed?); ${removed.deleted ? 'removed it from the queue' : 'it was no longer queued'}` }
    : { status: 'stale', reason: `not delivered within ${job.deadlineMs} ms, and removing it failed: ${removed.reason}` };
  deps.log.warn(`queue: ${result.reason}`);
  deps.log.debug(`queue: ${result.status}`, fields);
  return result;
}

/**
 * Start the confirmer as a detached process (`<node> <this bin> __confirm-queue`, job on stdin) so
 * the notify program exits at once: Codex waits for nothing, and the confirmer has its own deadline
 * (`deadlineMs` plus the delete's time limit).
 */
export function spawnQueueConfirmer(job: QueueJob, options: { readonly command: readonly string[]; readonly env: Env }): { ok: true } | { ok: false; reason: string } {
  const [file, ...args] = options.command;
  if (file === undefined) return { ok: false, reason: 'no command to start the confirmer with' };
  try {
    const child = spawn(file, [...args, CONFIRM_QUEUE_COMMAND], { env: { ...options.env }, detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(JSON.stringify(job));
    child.unref();
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `cannot start the queue confirmer: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Read and validate a job from stdin text (the confirmer's entry). */
export function parseQueueJob(text: string): QueueJob | undefined {
  try {
    const parsed = QueueJobSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
