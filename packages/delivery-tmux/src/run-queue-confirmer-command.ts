import { isTruthyEnv, resolveStateDir } from '@agent-checkpoint/core';
import { createNotifyLogger } from './notify-logger.ts';
import { confirmQueuedJob, parseQueueJob, type QueueConfirmation, type QueueJob } from './queue-confirmer.ts';
import { appendQueueOutcome, type QueueOutcomeEntry } from './queue-outcome-log.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Largest job accepted on stdin (the message plus a few paths). */
const MAX_JOB_BYTES = 4 * 1024 * 1024;
/** Time the delete may take after the confirmation deadline. */
const DELETE_ALLOWANCE_MS = 20_000;

/**
 * `agent-checkpoint-tmux __confirm-queue`: read one queued-item job from stdin, confirm or withdraw
 * it, log the outcome. stderr is detached, so a non-confirmed outcome (withdrawn, stale, gave up) is
 * always appended to `<stateDir>/notify.log` (`doctor` shows the last one); a confirmed delivery only
 * in debug mode (it is also in `debug.log` then). Always exits 0, and within the job's deadline plus
 * {@link DELETE_ALLOWANCE_MS}.
 */
export async function runQueueConfirmerCommand(stdin: NodeJS.ReadableStream, env: Env): Promise<number> {
  let stateDir: string | undefined;
  try {
    stateDir = resolveStateDir({ env });
  } catch {
    stateDir = undefined;
  }
  const debug = isTruthyEnv(env['AGENT_CHECKPOINT_DEBUG']);
  const log = createNotifyLogger({ debug, stateDir });
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.length > MAX_JOB_BYTES) break;
  }
  const job = text.length > MAX_JOB_BYTES ? undefined : parseQueueJob(text);
  if (job === undefined) {
    log.warn('queue confirmer: invalid job on stdin');
    return 0;
  }
  const record = (outcome: QueueConfirmation): void => {
    if (stateDir === undefined || (outcome.status === 'delivered' && !debug)) return;
    const note = appendQueueOutcome(stateDir, outcomeEntry(job, outcome));
    if (note !== undefined) log.warn(note);
  };
  const net = setTimeout(() => {
    log.warn(`queue confirmer: gave up on ${job.queuedSubmissionId}`);
    record({ status: 'stale', reason: `the confirmer gave up after ${job.deadlineMs + DELETE_ALLOWANCE_MS} ms; the item may still be queued` });
    process.exit(0);
  }, job.deadlineMs + DELETE_ALLOWANCE_MS);
  net.unref();
  record(await confirmQueuedJob(job, { env, log }));
  return 0;
}

function outcomeEntry(job: QueueJob, outcome: QueueConfirmation): QueueOutcomeEntry {
  const ids = { threadId: job.threadId, turnId: job.turnId, queuedSubmissionId: job.queuedSubmissionId };
  const at = new Date().toISOString();
  return outcome.status === 'delivered'
    ? { at, status: outcome.status, ...ids, latencyMs: outcome.latencyMs }
    : { at, status: outcome.status, ...ids, reason: outcome.reason };
}
